import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { coreEnv, DEV_JWT_SECRET, type CoreEnv } from './core-env.js';
import { describeDefaults, exposureProblems, type DefaultsInUse } from './exposure.js';
import { productionProblems } from './production-checks.js';
import { serviceUrlsOf } from './service-urls.js';
import type { SettingsSlice } from './slice.js';

export type { CoreEnv } from './core-env.js';

/** A start-up configuration problem; the message names every failing setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** The seeded admin password outside production (identity's seed uses it when unset). */
const DEV_ADMIN_PASSWORD = 'admin123';

/**
 * Each service's settings, as `settings.<service name>`: every settings slice adds its shape
 * here beside its own declaration (`declare module '../../config/settings.js'`), and the loader
 * fills it from the slices the modules declare.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ModuleSettings {}

export type Settings = CoreSettings & ModuleSettings;
export type CoreSettings = ReturnType<typeof shapeCore>;

/** A module as the loader sees it: its name (the key of its slice) and the slice, if any. */
export interface SettingsOwner {
  name: string;
  settings?: SettingsSlice;
}

/** Keys of the business-audit chain: both derived from one secret the database never holds. */
function auditChainSettings(env: CoreEnv) {
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

function defaultsInUse(env: CoreEnv): DefaultsInUse {
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

function shapeCore(env: CoreEnv, source: NodeJS.ProcessEnv) {
  const dbPassword =
    env.DB_PASSWORD ??
    env.POSTGRES_PASSWORD ??
    (env.DATABASE_URL ? decodeURIComponent(new URL(env.DATABASE_URL).password) : undefined);
  return {
    env: env.APP_ENV,
    production: env.APP_ENV === 'production',
    /** `name:action` for fault tests (src/platform/failpoints.ts); refused in production. */
    failpoint: env.FAILPOINT,
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
      template: env.DATA_TEMPLATE,
      poolSize: env.DB_POOL_SIZE,
      preparedStatements: env.DB_PREPARED_STATEMENTS,
      connectRetries: env.DB_CONNECT_RETRIES,
      connectRetryDelayMs: env.DB_CONNECT_RETRY_DELAY,
    },
    redis: { url: env.REDIS_URL, password: env.REDIS_PASSWORD, keyPrefix: env.REDIS_KEY_PREFIX },
    nats: { url: env.NATS_URL, stream: env.NATS_STREAM, subjectPrefix: env.NATS_SUBJECT_PREFIX },
    /** Every other secret derives from it unless set on its own. */
    jwtSecret: env.JWT_SECRET,
    /** The process's one argon2 semaphore (every service hashes through it). */
    passwordHash: {
      concurrency: env.PASSWORD_HASH_CONCURRENCY,
      queue: env.PASSWORD_HASH_QUEUE,
      /** Slots anonymous work (a password reset) may hold; at most the concurrency. */
      anonymous: env.PASSWORD_HASH_ANONYMOUS,
    },
    /** The seed's `admin` password; required in production the first time. */
    adminInitialPassword: env.ADMIN_INITIAL_PASSWORD,
    gateway: {
      // The X-Auth-* signing key: its own setting, else derived from JWT_SECRET so the two never match.
      signingSecret:
        env.GATEWAY_SIGNING_SECRET ??
        createHmac('sha256', env.JWT_SECRET).update('approva/x-auth-signature').digest('hex'),
      rateAverage: env.GATEWAY_RATE_AVERAGE,
      rateBurst: env.GATEWAY_RATE_BURST,
      upstreamTimeoutMs: env.GATEWAY_UPSTREAM_TIMEOUT,
      /** Requests to the services of the gateway's own process are handed over in process. */
      inProcess: env.GATEWAY_IN_PROCESS,
      trustProxy: env.GATEWAY_TRUST_PROXY,
      consoleDir: env.CONSOLE_DIR,
    },
    metrics: { enabled: env.METRICS_ENABLED, port: env.METRICS_PORT },
    serviceUrls: serviceUrlsOf(source).urls,
    /** The pacing of every notice and callback outbox (BPM's and the audit service's). */
    outbox: {
      pollIntervalMs: env.BPM_OUTBOX_POLL_INTERVAL,
      maxAttempts: env.BPM_OUTBOX_MAX_ATTEMPTS,
      backoffBaseMs: env.BPM_OUTBOX_BACKOFF_BASE,
      leaseMs: env.BPM_OUTBOX_LEASE,
      timeoutMs: env.BPM_OUTBOX_TIMEOUT,
      keepDeliveredMs: env.BPM_OUTBOX_KEEP_DELIVERED,
    },
    /** The notification API (BPM's notices, the new-device notice); skipped until both are set. */
    notify: {
      enabled: Boolean(env.NOTIFY_API_BASE && env.NOTIFY_API_TOKEN),
      base: env.NOTIFY_API_BASE,
      token: env.NOTIFY_API_TOKEN,
    },
    /** Platform mail (reset links, account notices), through SMTP when enabled. */
    mail: {
      enabled: env.MAIL_ENABLED,
      host: env.SMTP_HOST,
      port: env.SMTP_PORT,
      secure: env.SMTP_SECURE,
      user: env.SMTP_USER,
      password: env.SMTP_PASSWORD,
      from: env.MAIL_FROM,
    },
    /** The business-audit chain every service writes through the kernel. */
    auditChain: auditChainSettings(env),
    /** Optional online geolocation, `{ip}` replaced by the address; cached 1 h. Unset: offline only. */
    geoOnlineUrl: env.AUDIT_GEO_ONLINE_URL,
    /** How old a process's copy of the editable error texts may get (default 30 s). */
    errorTextRefreshMs: env.ERROR_TEXT_REFRESH_INTERVAL,
  };
}

/** The core's variables and every slice's, refusing a variable claimed twice (a programming error). */
function envSchemaOf(owners: readonly SettingsOwner[]) {
  const shape: Record<string, z.ZodType> = { ...coreEnv };
  for (const owner of owners) {
    for (const [name, field] of Object.entries(owner.settings?.env ?? {})) {
      if (name in shape)
        throw new Error(`${owner.name} declares ${name}, which is declared already`);
      shape[name] = field;
    }
  }
  return z.object(shape);
}

/** The platform's own settings alone (no module's): what a process needs before it loads them. */
export const parseCoreSettings = (source: NodeJS.ProcessEnv): CoreSettings =>
  parseSettings(source, []);

/**
 * Parses the environment once for the given modules (src/start.ts's `loadSettings` passes them
 * all); throws ConfigError naming every bad setting.
 */
export function parseSettings(
  source: NodeJS.ProcessEnv,
  owners: readonly SettingsOwner[],
): Settings {
  const parsed = envSchemaOf(owners).safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const malformed = serviceUrlsOf(source).problems;
  const env0 = parsed.data as CoreEnv;
  if (env0.DATA_TEMPLATE && (env0.DATABASE_URL || !env0.DATA_DIR.startsWith('memory://'))) {
    malformed.push(
      'DATA_TEMPLATE: only an in-memory embedded database (DATA_DIR=memory://) starts from it',
    );
  }
  if (malformed.length > 0) throw new ConfigError(malformed);
  const env = env0;
  const core = shapeCore(env, source);
  const slices = owners.filter((o) => o.settings !== undefined);
  const settings = {
    ...core,
    ...Object.fromEntries(slices.map((o) => [o.name, o.settings!.shape(env, source)])),
  } as Settings;
  const problems = core.production
    ? [
        ...productionProblems(env, core),
        ...slices.flatMap((o) => o.settings!.productionProblems?.(env) ?? []),
      ]
    : [];
  // Fail closed: a default secret reachable from the network needs an explicit development
  // APP_ENV, never the implicit one.
  problems.push(
    ...exposureProblems(
      defaultsInUse(env),
      { HOST: core.http.host, SERVICE_HOST: core.http.serviceHost },
      source.APP_ENV === 'development',
    ),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
