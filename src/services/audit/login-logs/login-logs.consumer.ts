import { NO_NOTICES, type NoticeChannels } from './new-device-notice.js';
import type { Kernel } from '../../../platform/kernel.js';
import type {
  ConsumeBatchHandler,
  ConsumeHandler,
  ConsumerHandle,
  DeadMessage,
} from '../../../platform/stream/stream.js';
import {
  GeoLocator,
  parseUserAgent,
  userAgentParser,
  type ClientInfo,
} from './login-logs.enrich.js';
import {
  insertLoginLog,
  insertLoginLogs,
  type LoginLogDb,
  type LoginLogTables,
  type NewLoginLog,
} from './login-logs.repo.js';
import { loginEventPayload } from './login-logs.schema.js';

/** The durable consumer name, shared by every audit replica. */
export const LOGIN_LOG_CONSUMER = 'audit_login_logs';
export const LOGIN_EVENTS = ['auth.login.success', 'auth.login.failed'];
/** Events taken and stored together per round. */
export const LOGIN_LOG_BATCH = 500;

export interface LoginLogConsumerOptions {
  /** Setting `AUDIT_GEO_ONLINE_URL`, default unset (offline database only). */
  geoOnlineUrl?: string | undefined;
  /** Setting `AUDIT_LOGIN_ACK_WAIT`, default 30 s. */
  ackWaitMs?: number;
  /** Setting `AUDIT_LOGIN_RETRY_BACKOFF`, default 1 s (then doubling per failure). */
  backoffMs?: number;
  /** Table stream polling; default 250 ms (well inside the 10 s visibility promise). */
  pollIntervalMs?: number;
  /** Events stored together per round; default LOGIN_LOG_BATCH (200). */
  batchSize?: number;
  onDead?: (dead: DeadMessage) => void | Promise<void>;
  /** Where new-device notices go (the notification API when configured, the inbox when fitted). */
  newDeviceNotices?: NoticeChannels;
}

/** The login log of one event, enriched (client from the user agent, location from the IP). */
async function toLoginLog(
  payload: unknown,
  geo: GeoLocator,
  parseClient: (userAgent: string | null | undefined) => ClientInfo,
): Promise<NewLoginLog> {
  const event = loginEventPayload.parse(payload);
  return {
    event_id: event.event_id,
    tenant_id: event.tenant_id,
    user_id: event.user_id,
    username: event.username,
    login_type: event.login_type,
    success: event.success,
    reason: event.reason ?? null,
    ip: event.ip ?? null,
    location: await geo.locate(event.ip),
    ...parseClient(event.user_agent),
    device_id: event.device_id || null,
    session_id: event.session_id ?? null,
    created_at: event.occurred_at ? new Date(event.occurred_at) : new Date(),
  };
}

/** Turns one login event into a stored login log (enrichment included), idempotent on event id. */
export function loginLogWriter(
  db: LoginLogDb,
  geo: GeoLocator,
  notices: NoticeChannels = NO_NOTICES,
) {
  return async (payload: unknown): Promise<boolean> =>
    insertLoginLog(db, await toLoginLog(payload, geo, parseUserAgent), notices);
}

/**
 * Stores a batch of login events in one transaction (one multi-row INSERT), idempotent on each
 * event id. Throws, storing nothing, if any event does not match the schema: the consumer then
 * falls back to the one-event writer, so only the bad one fails. Returns how many were new.
 */
export function loginLogBatchWriter(
  db: LoginLogDb,
  geo: GeoLocator,
  notices: NoticeChannels = NO_NOTICES,
) {
  // Clients repeat their user agents: parsing each distinct one once is most of the saving.
  const parseClient = userAgentParser();
  return async (payloads: unknown[]): Promise<number> => {
    const logs = await Promise.all(payloads.map((p) => toLoginLog(p, geo, parseClient)));
    return insertLoginLogs(db, logs, notices);
  };
}

/**
 * The consumer's two handlers: the batch one (a round's events in one INSERT) and the
 * one-event fallback, sharing one geolocator and its caches. With `notices`, a successful
 * sign-in from a new device enqueues a notice (see new-device-notice.ts).
 */
export function loginLogHandlers(
  db: LoginLogDb,
  geo: GeoLocator,
  notices: NoticeChannels = NO_NOTICES,
): { handler: ConsumeHandler; handleBatch: ConsumeBatchHandler } {
  const write = loginLogWriter(db, geo, notices);
  const writeBatch = loginLogBatchWriter(db, geo, notices);
  return {
    handler: async (payload) => void (await write(payload)),
    handleBatch: async (deliveries) => void (await writeBatch(deliveries.map((d) => d.payload))),
  };
}

/**
 * The audit service's background work: login events → login logs, through a durable consumer
 * (JetStream or the table stream), up to LOGIN_LOG_BATCH events a round stored together. Up
 * to 5 deliveries; a message that still fails is recorded in `stream_dead_letters` and counted
 * in the handle's stats.
 */
export function startLoginLogConsumer(
  kernel: Kernel,
  options: LoginLogConsumerOptions = {},
): ConsumerHandle {
  const db = kernel.database.db.withTables<LoginLogTables>();
  const geo = new GeoLocator({ cache: kernel.cache, onlineUrl: options.geoOnlineUrl });
  const { handler, handleBatch } = loginLogHandlers(
    db,
    geo,
    options.newDeviceNotices ?? NO_NOTICES,
  );
  return kernel.stream.consume(LOGIN_LOG_CONSUMER, LOGIN_EVENTS, handler, {
    maxDeliver: 5,
    ackWaitMs: options.ackWaitMs ?? 30_000,
    backoffMs: options.backoffMs ?? 1000,
    pollIntervalMs: options.pollIntervalMs ?? 250,
    batchSize: options.batchSize ?? LOGIN_LOG_BATCH,
    handleBatch,
    onDead: options.onDead,
  });
}
