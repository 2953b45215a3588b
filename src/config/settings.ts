import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { parseDurationMs } from './duration.js';
import { isPlaceholderSecret, isWeakSecret } from './secrets.js';

/** A start-up configuration problem; the message names every failing setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const DEV_JWT_SECRET = 'dev-only-jwt-secret-not-for-production-use';

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

const url = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    try {
      new URL(v);
      return v;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URL' });
      return z.NEVER;
    }
  });

/** Every environment variable the platform reads, with its default. README's table mirrors this. */
const envSchema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
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
  GATEWAY_SIGNING_SECRET: optionalText,
  GATEWAY_RATE_AVERAGE: int(100, 1),
  GATEWAY_RATE_BURST: int(200, 1),
  GATEWAY_TRUST_PROXY: bool(false),
  METRICS_ENABLED: bool(true),
  METRICS_PORT: int(9464, 0, 65535),
  LOGIN_CAPTCHA: z.enum(['always', 'after_failures', 'off']).default('after_failures'),
  ADMIN_INITIAL_PASSWORD: optionalText,
  AUTH_SERVICE_URL: url,
  IDENTITY_SERVICE_URL: url,
  BPM_SERVICE_URL: url,
  AUDIT_SERVICE_URL: url,
  BPM_INTERNAL_TOKEN: optionalText,
  BPM_CALLBACK_TOKEN: optionalText,
  BPM_TIMEOUT_SCAN_INTERVAL: duration('5m'),
  BPM_OUTBOX_POLL_INTERVAL: duration('1s'),
  BPM_OUTBOX_MAX_ATTEMPTS: int(10, 1, 100),
  BPM_OUTBOX_BACKOFF_BASE: duration('1s'),
  BPM_OUTBOX_LEASE: duration('30s'),
  BPM_OUTBOX_TIMEOUT: duration('10s'),
  AUDIT_LOG_RETENTION_DAYS: int(0, 0, 36500),
  AUDIT_RETENTION_INTERVAL: duration('1d'),
  AUDIT_GEO_ONLINE_URL: url,
  AUDIT_LOGIN_ACK_WAIT: duration('30s'),
  AUDIT_LOGIN_RETRY_BACKOFF: duration('1s'),
  NOTIFY_API_BASE: url,
  NOTIFY_API_TOKEN: optionalText,
  UPLOAD_STORAGE_TYPE: z.enum(['local', 's3', 'minio']).default('local'),
  S3_ACCESS_KEY: optionalText,
  S3_SECRET_KEY: optionalText,
  MAIL_ENABLED: bool(false),
  SMTP_HOST: optionalText,
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  OAUTH_LOGIN_ENABLED: bool(false),
  OAUTH_GITHUB_CLIENT_ID: optionalText,
  OAUTH_GITHUB_CLIENT_SECRET: optionalText,
  OAUTH_GOOGLE_CLIENT_ID: optionalText,
  OAUTH_GOOGLE_CLIENT_SECRET: optionalText,
});

type Env = z.infer<typeof envSchema>;

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
export type ServiceName = 'auth' | 'identity' | 'bpm' | 'audit';
export const SERVICE_NAMES: readonly ServiceName[] = ['auth', 'identity', 'bpm', 'audit'];

function shapeSettings(env: Env, source: NodeJS.ProcessEnv) {
  const dbPassword =
    env.DB_PASSWORD ??
    env.POSTGRES_PASSWORD ??
    (env.DATABASE_URL ? decodeURIComponent(new URL(env.DATABASE_URL).password) : undefined);
  return {
    env: env.APP_ENV,
    production: env.APP_ENV === 'production',
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
      trustProxy: env.GATEWAY_TRUST_PROXY,
    },
    metrics: { enabled: env.METRICS_ENABLED, port: env.METRICS_PORT },
    serviceUrls: {
      auth: env.AUTH_SERVICE_URL,
      identity: env.IDENTITY_SERVICE_URL,
      bpm: env.BPM_SERVICE_URL,
      audit: env.AUDIT_SERVICE_URL,
    } as Record<ServiceName, string | undefined>,
    uploads: { storageType: env.UPLOAD_STORAGE_TYPE },
    audit: {
      /** 0 = off; N > 0 prunes operation and login logs older than N days, every interval. */
      retentionDays: env.AUDIT_LOG_RETENTION_DAYS,
      retentionIntervalMs: env.AUDIT_RETENTION_INTERVAL,
      /** Optional online geolocation, `{ip}` replaced by the address; cached 1 h. Unset: offline only. */
      geoOnlineUrl: env.AUDIT_GEO_ONLINE_URL,
      loginAckWaitMs: env.AUDIT_LOGIN_ACK_WAIT,
      loginRetryBackoffMs: env.AUDIT_LOGIN_RETRY_BACKOFF,
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
      },
      /** BPM_CALLBACK_<BIZTYPE> targets, by upper-cased biz type with non-alphanumerics as `_`. */
      callbacks: callbackTargets(source),
      notify: {
        // Notifications are skipped silently until both are set (the spec's rule).
        enabled: Boolean(env.NOTIFY_API_BASE && env.NOTIFY_API_TOKEN),
        base: env.NOTIFY_API_BASE,
        token: env.NOTIFY_API_TOKEN,
      },
    },
  };
}

/** The spec's production start-up checks; features that are off are not checked. */
function productionProblems(env: Env, settings: Settings): string[] {
  const problems: string[] = [];
  if (env.JWT_SECRET.length < 32 || isPlaceholderSecret(env.JWT_SECRET)) {
    problems.push('JWT_SECRET must be at least 32 characters and not a placeholder');
  }
  if (env.GATEWAY_SIGNING_SECRET !== undefined && isPlaceholderSecret(env.GATEWAY_SIGNING_SECRET)) {
    problems.push('GATEWAY_SIGNING_SECRET must not be a placeholder');
  }
  if (!env.DATABASE_URL) {
    problems.push(
      'DATABASE_URL is required in production (the embedded database is for development)',
    );
  } else if (!settings.database.password || isWeakSecret(settings.database.password)) {
    problems.push('DB_PASSWORD (or the DATABASE_URL password) must be set and not a weak value');
  }
  if (env.REDIS_URL) {
    const redisPassword = env.REDIS_PASSWORD ?? decodeURIComponent(new URL(env.REDIS_URL).password);
    if (redisPassword && isWeakSecret(redisPassword)) {
      problems.push('REDIS_PASSWORD must not be a weak value');
    }
  }
  if (env.UPLOAD_STORAGE_TYPE !== 'local') {
    for (const name of ['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      const value = env[name];
      if (!value || isPlaceholderSecret(value)) {
        problems.push(
          `${name} must be set and not a placeholder when UPLOAD_STORAGE_TYPE is ${env.UPLOAD_STORAGE_TYPE}`,
        );
      }
    }
  }
  if (env.MAIL_ENABLED && env.SMTP_HOST && env.SMTP_USER) {
    if (!env.SMTP_PASSWORD || isWeakSecret(env.SMTP_PASSWORD)) {
      problems.push('SMTP_PASSWORD must be set and not a weak value when mail uses authentication');
    }
  }
  if (env.OAUTH_LOGIN_ENABLED) {
    for (const provider of ['GITHUB', 'GOOGLE'] as const) {
      const id = env[`OAUTH_${provider}_CLIENT_ID`];
      const secret = env[`OAUTH_${provider}_CLIENT_SECRET`];
      if (id && secret !== undefined && isPlaceholderSecret(secret)) {
        problems.push(`OAUTH_${provider}_CLIENT_SECRET must not be a placeholder`);
      }
    }
  }
  if (env.ADMIN_INITIAL_PASSWORD !== undefined && isWeakSecret(env.ADMIN_INITIAL_PASSWORD)) {
    problems.push('ADMIN_INITIAL_PASSWORD must not be a weak value');
  }
  return problems;
}

/** Parses the environment once; throws ConfigError naming every bad setting. */
export function loadSettings(source: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const settings = shapeSettings(parsed.data, source);
  if (settings.production) {
    const problems = productionProblems(parsed.data, settings);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return settings;
}
