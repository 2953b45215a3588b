import { monitorSettings } from './monitor-settings.js';
import { systemSettings } from './system-settings.js';
import { uploadSettings } from './upload-settings.js';
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { serviceUrlsOf, url } from './service-urls.js';
import { parseDurationMs } from './duration.js';
import { externalLoginSettings, notifySettings } from './external-settings.js';
import { describeDefaults, exposureProblems, type DefaultsInUse } from './exposure.js';
import { productionProblems } from './production-checks.js';
import { parseTrustProxy } from './trust-proxy.js';

/** A start-up configuration problem; the message names every failing setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const DEV_JWT_SECRET = 'dev-only-jwt-secret-not-for-production-use';
/** The seeded admin password outside production (identity's seed uses it when unset). */
const DEV_ADMIN_PASSWORD = 'admin123';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const duration = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const ms = parseDurationMs(v === undefined || v === '' ? fallback : v);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration such as 500ms, 30s, 5m, 1h' });
        return z.NEVER;
      }
      return ms;
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/** Every environment variable the platform reads, with its default. README's table mirrors this. */
const envSchema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Loopback by default: a fresh `npm start` with the development defaults is not reachable from
  // the network; HOST=0.0.0.0 needs real secrets or an explicit APP_ENV=development.
  HOST: z.string().default('127.0.0.1'),
  PORT: int(8080, 0, 65535),
  SERVICE_HOST: z.string().default('127.0.0.1'),
  SERVICE_PORT: int(0, 0, 65535),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: url,
  DB_PASSWORD: optionalText,
  POSTGRES_PASSWORD: optionalText,
  DB_POOL_SIZE: int(10, 1, 200),
  DB_CONNECT_RETRIES: int(30, 0, 1000),
  DB_CONNECT_RETRY_DELAY: duration('1s'),
  REDIS_URL: url,
  REDIS_PASSWORD: optionalText,
  REDIS_KEY_PREFIX: z.string().default('approva:'),
  NATS_URL: url,
  NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('APPROVA_EVENTS'),
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)*$/)
    .default(''),
  JWT_SECRET: z.string().default(DEV_JWT_SECRET),
  ACCESS_TOKEN_TTL: duration('15m'),
  REFRESH_TOKEN_TTL: duration('7d'),
  SESSION_MAX_AGE: duration('30d'),
  LOGIN_BACKOFF_AFTER: int(5, 1, 1000),
  LOGIN_BACKOFF_BASE: duration('1s'),
  LOGIN_BACKOFF_MAX: duration('15m'),
  LOGIN_IP_MAX_FAILURES: int(100, 1),
  PASSWORD_HASH_CONCURRENCY: int(2, 1, 64),
  PASSWORD_HASH_QUEUE: int(64, 0, 100_000),
  PASSWORD_HASH_ANONYMOUS: int(1, 1, 64),
  GATEWAY_SIGNING_SECRET: optionalText,
  GATEWAY_RATE_AVERAGE: int(100, 1),
  GATEWAY_RATE_BURST: int(200, 1),
  GATEWAY_UPSTREAM_TIMEOUT: duration('60s'),
  GATEWAY_TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (typeof parsed === 'object' && !Array.isArray(parsed) && parsed !== null) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
  /** The built console the gateway serves at `/`; empty: `web/dist` of this installation. */
  CONSOLE_DIR: z.string().default(''),
  METRICS_ENABLED: bool(true),
  METRICS_PORT: int(9464, 0, 65535),
  LOGIN_CAPTCHA: z.enum(['always', 'after_failures', 'off']).default('after_failures'),
  ADMIN_INITIAL_PASSWORD: optionalText,
  BPM_INTERNAL_TOKEN: optionalText,
  BPM_CALLBACK_TOKEN: optionalText,
  BPM_TIMEOUT_SCAN_INTERVAL: duration('5m'),
  BPM_OUTBOX_POLL_INTERVAL: duration('1s'),
  BPM_OUTBOX_MAX_ATTEMPTS: int(10, 1, 100),
  BPM_OUTBOX_BACKOFF_BASE: duration('1s'),
  BPM_OUTBOX_LEASE: duration('30s'),
  BPM_OUTBOX_TIMEOUT: duration('10s'),
  BPM_OUTBOX_KEEP_DELIVERED: duration('7d'),
  AUDIT_LOG_RETENTION_DAYS: int(0, 0, 36500),
  AUDIT_RETENTION_INTERVAL: duration('1d'),
  AUDIT_GEO_ONLINE_URL: url,
  AUDIT_LOGIN_ACK_WAIT: duration('30s'),
  AUDIT_LOGIN_RETRY_BACKOFF: duration('1s'),
  AUDIT_CHAIN_SECRET: optionalText,
  AUDIT_CHECKPOINT_INTERVAL: duration('1m'),
  AUDIT_CHECKPOINT_FILE: optionalText,
  NOTIFY_API_BASE: url,
  NOTIFY_API_TOKEN: optionalText,
  CODEGEN_WRITE_ENABLED: bool(false),
  /** The project the code generator writes into; empty: the working directory. */
  CODEGEN_OUTPUT_DIR: optionalText,
  UPLOAD_STORAGE_TYPE: z.enum(['local', 's3', 'minio']).default('local'),
  S3_ACCESS_KEY: optionalText,
  S3_SECRET_KEY: optionalText,
  UPLOAD_S3_ENDPOINT: url,
  UPLOAD_S3_BUCKET: z.string().default('approva'),
  UPLOAD_S3_REGION: z.string().default('us-east-1'),
  UPLOAD_S3_ACCESS_KEY: optionalText,
  UPLOAD_S3_SECRET_KEY: optionalText,
  /** Local storage's directory; default `<DATA_DIR>/uploads` (a temporary one for `memory://`). */
  UPLOAD_LOCAL_DIR: optionalText,
  UPLOAD_MAX_SIZE: int(50 * 1024 * 1024, 1, 5 * 1024 * 1024 * 1024),
  UPLOAD_URL_SIGN_SECRET: optionalText,
  UPLOAD_URL_SIGN_TTL_SECONDS: int(300, 1, 7 * 24 * 3600),
  MONITOR_SAMPLE_INTERVAL: duration('60s'),
  MAIL_ENABLED: bool(false),
  SMTP_HOST: optionalText,
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  OAUTH_LOGIN_ENABLED: bool(false),
  OAUTH_GITHUB_CLIENT_ID: optionalText,
  OAUTH_GITHUB_CLIENT_SECRET: optionalText,
  OAUTH_GITHUB_BASE_URL: url.transform((v) => v ?? 'https://github.com'),
  OAUTH_GITHUB_API_URL: url.transform((v) => v ?? 'https://api.github.com'),
  OAUTH_GOOGLE_CLIENT_ID: optionalText,
  OAUTH_GOOGLE_CLIENT_SECRET: optionalText,
  OAUTH_OIDC_ISSUER: url,
  OAUTH_OIDC_CLIENT_ID: optionalText,
  OAUTH_OIDC_CLIENT_SECRET: optionalText,
  OAUTH_REDIRECT_URL: url,
  OIDC_ISSUER_URL: url,
  OIDC_KEY_ENCRYPTION_KEY: optionalText,
  OIDC_KEY_CHECK_INTERVAL: duration('60s'),
  SMTP_PORT: int(587, 1, 65535),
  SMTP_SECURE: bool(false),
  MAIL_FROM: z.string().default('no-reply@localhost'),
  PASSWORD_RESET_URL: url,
  PASSWORD_FORGOT_PER_IP: int(5, 1, 100_000),
  PASSWORD_RESET_PER_IP: int(10, 1, 100_000),
  ERROR_TEXT_REFRESH_INTERVAL: duration('30s'),
  SYSTEM_ENCRYPTION_KEY: optionalText,
  SYSTEM_INTERNAL_TOKEN: optionalText,
  SMS_PROVIDER_URL: url,
  SMS_PROVIDER_TOKEN: optionalText,
  TEMPLATE_LANGUAGE: z.enum(['zh-CN', 'en-US']).default('en-US'),
});

export type Env = z.infer<typeof envSchema>;

/** Every `BPM_CALLBACK_<BIZTYPE>` variable but the token. */
function callbackTargets(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source)
      .filter(
        (entry): entry is [string, string] =>
          entry[0].startsWith('BPM_CALLBACK_') &&
          entry[0] !== 'BPM_CALLBACK_TOKEN' &&
          Boolean(entry[1]),
      )
      .map(([name, value]) => [name.slice('BPM_CALLBACK_'.length), value]),
  );
}
/** The callback variable suffix of a business type: upper-cased, non-alphanumerics as `_`. */
export const callbackSuffix = (bizType: string) => bizType.toUpperCase().replace(/[^A-Z0-9]/g, '_');

export type Settings = ReturnType<typeof shapeSettings>;
/** Keys of the business-audit chain: both derived from one secret the database never holds. */
function auditChainSettings(env: Env) {
  // Outside production the secret derives from JWT_SECRET (production requires its own).
  const secret =
    env.AUDIT_CHAIN_SECRET ??
    createHmac('sha256', env.JWT_SECRET).update('approva/audit-chain').digest('hex');
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest();
  const file = env.AUDIT_CHECKPOINT_FILE;
  return {
    linkKey: derive('approva/audit-chain/link'),
    checkpointKey: derive('approva/audit-chain/checkpoint'),
    checkpointIntervalMs: env.AUDIT_CHECKPOINT_INTERVAL,
    /** The append-only checkpoint file; unset with `off` or an in-memory DATA_DIR. */
    checkpointFile:
      file === 'off'
        ? undefined
        : (file ??
          (env.DATA_DIR.startsWith('memory://')
            ? undefined
            : `${env.DATA_DIR.replace(/\/+$/, '')}/audit-checkpoints.jsonl`)),
  };
}

function defaultsInUse(env: Env): DefaultsInUse {
  return {
    jwtSecret: env.JWT_SECRET === DEV_JWT_SECRET,
    // Production never seeds admin123 (the seed requires ADMIN_INITIAL_PASSWORD there), so a
    // production restart without the setting is not a default in use.
    adminPassword:
      env.APP_ENV === 'production'
        ? env.ADMIN_INITIAL_PASSWORD === DEV_ADMIN_PASSWORD
        : (env.ADMIN_INITIAL_PASSWORD ?? DEV_ADMIN_PASSWORD) === DEV_ADMIN_PASSWORD,
  };
}

function shapeSettings(env: Env, source: NodeJS.ProcessEnv) {
  const dbPassword =
    env.DB_PASSWORD ??
    env.POSTGRES_PASSWORD ??
    (env.DATABASE_URL ? decodeURIComponent(new URL(env.DATABASE_URL).password) : undefined);
  return {
    env: env.APP_ENV,
    production: env.APP_ENV === 'production',
    failpoint: source.FAILPOINT || undefined, // fault tests (src/platform/failpoints.ts)
    /** Development defaults in use, by setting name; start-up logs a warning naming each. */
    defaultsInUse: describeDefaults(defaultsInUse(env)),
    logLevel: env.LOG_LEVEL,
    http: {
      host: env.HOST,
      port: env.PORT,
      serviceHost: env.SERVICE_HOST,
      servicePort: env.SERVICE_PORT,
    },
    database: {
      url: env.DATABASE_URL,
      password: dbPassword || undefined,
      dataDir: env.DATA_DIR,
      poolSize: env.DB_POOL_SIZE,
      connectRetries: env.DB_CONNECT_RETRIES,
      connectRetryDelayMs: env.DB_CONNECT_RETRY_DELAY,
    },
    redis: { url: env.REDIS_URL, password: env.REDIS_PASSWORD, keyPrefix: env.REDIS_KEY_PREFIX },
    nats: { url: env.NATS_URL, stream: env.NATS_STREAM, subjectPrefix: env.NATS_SUBJECT_PREFIX },
    auth: {
      jwtSecret: env.JWT_SECRET,
      accessTokenTtlMs: env.ACCESS_TOKEN_TTL,
      refreshTokenTtlMs: env.REFRESH_TOKEN_TTL,
      /** Absolute lifetime of a sign-in session; refresh never extends it. */
      sessionMaxAgeMs: env.SESSION_MAX_AGE,
      throttle: {
        /** Failures of one account (24 h, until a success) before each attempt waits. */
        backoffAfter: env.LOGIN_BACKOFF_AFTER,
        backoffBaseMs: env.LOGIN_BACKOFF_BASE,
        backoffMaxMs: env.LOGIN_BACKOFF_MAX,
        /** Failures from one IP within 15 minutes before its attempts are refused. */
        ipMaxFailures: env.LOGIN_IP_MAX_FAILURES,
      },
      passwordHash: {
        concurrency: env.PASSWORD_HASH_CONCURRENCY,
        queue: env.PASSWORD_HASH_QUEUE,
        /** Slots anonymous work (a password reset) may hold; at most the concurrency. */
        anonymous: env.PASSWORD_HASH_ANONYMOUS,
      },
      captcha: env.LOGIN_CAPTCHA,
      adminInitialPassword: env.ADMIN_INITIAL_PASSWORD,
    },
    gateway: {
      // The X-Auth-* signing key: its own setting, else derived from JWT_SECRET so the two never match.
      signingSecret:
        env.GATEWAY_SIGNING_SECRET ??
        createHmac('sha256', env.JWT_SECRET).update('approva/x-auth-signature').digest('hex'),
      rateAverage: env.GATEWAY_RATE_AVERAGE,
      rateBurst: env.GATEWAY_RATE_BURST,
      upstreamTimeoutMs: env.GATEWAY_UPSTREAM_TIMEOUT,
      trustProxy: env.GATEWAY_TRUST_PROXY,
      consoleDir: env.CONSOLE_DIR,
    },
    metrics: { enabled: env.METRICS_ENABLED, port: env.METRICS_PORT },
    serviceUrls: serviceUrlsOf(source).urls,
    uploads: uploadSettings(env),
    codegen: {
      writeEnabled: env.CODEGEN_WRITE_ENABLED,
      outputDir: env.CODEGEN_OUTPUT_DIR ?? process.cwd(),
    },
    monitor: monitorSettings(env),
    system: systemSettings(env),
    oidc: {
      /** The public base URL; the issuer is `${issuerBase}/api/v1/oauth2`. Unset: the gateway's own URL. */
      issuerBase: env.OIDC_ISSUER_URL?.replace(/\/+$/, ''),
      // Encrypts the stored signing keys: its own setting, else derived from JWT_SECRET.
      keyEncryptionKey:
        env.OIDC_KEY_ENCRYPTION_KEY ??
        createHmac('sha256', env.JWT_SECRET).update('approva/oidc-key-encryption').digest('hex'),
      /** How often a running server looks for keys rotated by `keys rotate`. */
      keyCheckIntervalMs: env.OIDC_KEY_CHECK_INTERVAL,
      cookieSecret: createHmac('sha256', env.JWT_SECRET)
        .update('approva/oidc-cookies')
        .digest('hex'),
    },
    externalLogin: externalLoginSettings(env),
    mail: {
      enabled: env.MAIL_ENABLED,
      host: env.SMTP_HOST,
      port: env.SMTP_PORT,
      secure: env.SMTP_SECURE,
      user: env.SMTP_USER,
      password: env.SMTP_PASSWORD,
      from: env.MAIL_FROM,
      /** Where the reset link points (`?token=` is appended); unset: the console's page. */
      resetUrl: env.PASSWORD_RESET_URL,
      /** `/password/forgot` requests per client IP in 15 minutes. */
      forgotPerIp: env.PASSWORD_FORGOT_PER_IP,
      /** `/password/reset` requests per client IP in 15 minutes. */
      resetPerIp: env.PASSWORD_RESET_PER_IP,
    },
    audit: {
      /** 0 = off; N > 0 prunes operation and login logs older than N days, every interval. */
      retentionDays: env.AUDIT_LOG_RETENTION_DAYS,
      retentionIntervalMs: env.AUDIT_RETENTION_INTERVAL,
      /** Optional online geolocation, `{ip}` replaced by the address; cached 1 h. Unset: offline only. */
      geoOnlineUrl: env.AUDIT_GEO_ONLINE_URL,
      loginAckWaitMs: env.AUDIT_LOGIN_ACK_WAIT,
      loginRetryBackoffMs: env.AUDIT_LOGIN_RETRY_BACKOFF,
      chain: auditChainSettings(env),
    },
    bpm: {
      internalToken: env.BPM_INTERNAL_TOKEN,
      callbackToken: env.BPM_CALLBACK_TOKEN,
      timeoutScanIntervalMs: env.BPM_TIMEOUT_SCAN_INTERVAL,
      outbox: {
        pollIntervalMs: env.BPM_OUTBOX_POLL_INTERVAL,
        maxAttempts: env.BPM_OUTBOX_MAX_ATTEMPTS,
        backoffBaseMs: env.BPM_OUTBOX_BACKOFF_BASE,
        leaseMs: env.BPM_OUTBOX_LEASE,
        timeoutMs: env.BPM_OUTBOX_TIMEOUT,
        keepDeliveredMs: env.BPM_OUTBOX_KEEP_DELIVERED,
      },
      /** BPM_CALLBACK_<BIZTYPE> targets, by upper-cased biz type with non-alphanumerics as `_`. */
      callbacks: callbackTargets(source),
      notify: notifySettings(env),
    },
    /** The notification API (BPM's notices, the new-device notice). */
    notify: notifySettings(env),
  };
}

/** Parses the environment once; throws ConfigError naming every bad setting. */
export function loadSettings(source: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const malformed = serviceUrlsOf(source).problems;
  if (malformed.length > 0) throw new ConfigError(malformed);
  const settings = shapeSettings(parsed.data, source);
  const problems = settings.production ? productionProblems(parsed.data, settings) : [];
  // Fail closed: a default secret reachable from the network needs an explicit development
  // APP_ENV, never the implicit one.
  problems.push(
    ...exposureProblems(
      defaultsInUse(parsed.data),
      { HOST: settings.http.host, SERVICE_HOST: settings.http.serviceHost },
      source.APP_ENV === 'development',
    ),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
