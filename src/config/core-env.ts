import { z } from 'zod';
import { bool, duration, int, optionalText, url } from './env-fields.js';
import { parseTrustProxy } from './trust-proxy.js';

export const DEV_JWT_SECRET = 'dev-only-jwt-secret-not-for-production-use';

/**
 * The platform's own environment variables, with their defaults: the process, its stores, the
 * gateway and what several services share (the JWT secret the others derive from, the business
 * audit chain every service writes, mail, the notice outbox's pacing, the error texts every app
 * serves). A service's own variables are in its settings slice (`src/services/<name>/<name>.settings.ts`);
 * the README's settings table lists both.
 */
export const coreEnv = {
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Loopback by default: a fresh `npm start` with the development defaults is not reachable from
  // the network; HOST=0.0.0.0 needs real secrets or an explicit APP_ENV=development.
  HOST: z.string().default('127.0.0.1'),
  PORT: int(8080, 0, 65535),
  SERVICE_HOST: z.string().default('127.0.0.1'),
  SERVICE_PORT: int(0, 0, 65535),
  DATA_DIR: z.string().default('./data'),
  /** A PGlite data-directory dump an in-memory database starts from (tests, demos). */
  DATA_TEMPLATE: optionalText,
  DATABASE_URL: url,
  DB_PASSWORD: optionalText,
  POSTGRES_PASSWORD: optionalText,
  DB_POOL_SIZE: int(10, 1, 200),
  /** Named prepared statements on PostgreSQL; off behind a pooler that cannot keep them. */
  DB_PREPARED_STATEMENTS: bool(true),
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
  PASSWORD_HASH_CONCURRENCY: int(2, 1, 64),
  PASSWORD_HASH_QUEUE: int(64, 0, 100_000),
  PASSWORD_HASH_ANONYMOUS: int(1, 1, 64),
  ADMIN_INITIAL_PASSWORD: optionalText,
  GATEWAY_SIGNING_SECRET: optionalText,
  GATEWAY_RATE_AVERAGE: int(100, 1),
  GATEWAY_RATE_BURST: int(200, 1),
  GATEWAY_UPSTREAM_TIMEOUT: duration('60s'),
  /** All-in-one mode: the gateway hands requests to the services in process, not over loopback. */
  GATEWAY_IN_PROCESS: bool(true),
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
  BPM_OUTBOX_POLL_INTERVAL: duration('1s'),
  BPM_OUTBOX_MAX_ATTEMPTS: int(10, 1, 100),
  BPM_OUTBOX_BACKOFF_BASE: duration('1s'),
  BPM_OUTBOX_LEASE: duration('30s'),
  BPM_OUTBOX_TIMEOUT: duration('10s'),
  BPM_OUTBOX_KEEP_DELIVERED: duration('7d'),
  NOTIFY_API_BASE: url,
  NOTIFY_API_TOKEN: optionalText,
  MAIL_ENABLED: bool(false),
  SMTP_HOST: optionalText,
  SMTP_PORT: int(587, 1, 65535),
  SMTP_SECURE: bool(false),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  MAIL_FROM: z.string().default('no-reply@localhost'),
  AUDIT_CHAIN_SECRET: optionalText,
  AUDIT_CHECKPOINT_INTERVAL: duration('1m'),
  AUDIT_CHECKPOINT_FILE: optionalText,
  AUDIT_GEO_ONLINE_URL: url,
  ERROR_TEXT_REFRESH_INTERVAL: duration('30s'),
  /** Fault tests only: `<failpoint>:<action>` (src/platform/failpoints.ts). */
  FAILPOINT: optionalText,
};

export type CoreEnv = z.output<z.ZodObject<typeof coreEnv>>;
