import type { Kernel } from '../../../platform/kernel.js';
import type { ConsumerHandle, DeadMessage } from '../../../platform/stream/stream.js';
import { GeoLocator, parseUserAgent } from './login-logs.enrich.js';
import {
  insertLoginLog,
  type LoginLogDb,
  type LoginLogTables,
  type NewLoginLog,
} from './login-logs.repo.js';
import { loginEventPayload } from './login-logs.schema.js';

/** The durable consumer name, shared by every audit replica. */
export const LOGIN_LOG_CONSUMER = 'audit_login_logs';
export const LOGIN_EVENTS = ['auth.login.success', 'auth.login.failed'];

export interface LoginLogConsumerOptions {
  /** Setting `AUDIT_GEO_ONLINE_URL`, default unset (offline database only). */
  geoOnlineUrl?: string | undefined;
  /** Setting `AUDIT_LOGIN_ACK_WAIT`, default 30 s. */
  ackWaitMs?: number;
  /** Setting `AUDIT_LOGIN_RETRY_BACKOFF`, default 1 s (then doubling per failure). */
  backoffMs?: number;
  /** Table stream polling; default 250 ms (well inside the 10 s visibility promise). */
  pollIntervalMs?: number;
  onDead?: (dead: DeadMessage) => void | Promise<void>;
}

/** Turns one login event into a stored login log (enrichment included), idempotent on event id. */
export function loginLogWriter(db: LoginLogDb, geo: GeoLocator) {
  return async (payload: unknown): Promise<boolean> => {
    const event = loginEventPayload.parse(payload);
    const client = parseUserAgent(event.user_agent);
    const log: NewLoginLog = {
      event_id: event.event_id,
      tenant_id: event.tenant_id,
      user_id: event.user_id,
      username: event.username,
      login_type: event.login_type,
      success: event.success,
      reason: event.reason ?? null,
      ip: event.ip ?? null,
      location: await geo.locate(event.ip),
      ...client,
      device_id: event.device_id || null,
      session_id: event.session_id ?? null,
      created_at: event.occurred_at ? new Date(event.occurred_at) : new Date(),
    };
    return insertLoginLog(db, log);
  };
}

/**
 * The audit service's background work: login events → login logs, through a durable consumer
 * (JetStream or the table stream). Up to 5 deliveries; a message that still fails is recorded
 * in `stream_dead_letters` and counted in the handle's stats.
 */
export function startLoginLogConsumer(
  kernel: Kernel,
  options: LoginLogConsumerOptions = {},
): ConsumerHandle {
  const db = kernel.database.db.withTables<LoginLogTables>();
  const geo = new GeoLocator({ cache: kernel.cache, onlineUrl: options.geoOnlineUrl });
  const write = loginLogWriter(db, geo);
  return kernel.stream.consume(
    LOGIN_LOG_CONSUMER,
    LOGIN_EVENTS,
    async (payload) => void (await write(payload)),
    {
      maxDeliver: 5,
      ackWaitMs: options.ackWaitMs ?? 30_000,
      backoffMs: options.backoffMs ?? 1000,
      pollIntervalMs: options.pollIntervalMs ?? 250,
      onDead: options.onDead,
    },
  );
}
