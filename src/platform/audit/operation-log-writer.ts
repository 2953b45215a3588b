import { Kysely, PostgresDialect, sql, type Generated } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { listenForConnectionErrors } from '../db/database.js';
import { jsonRecords } from '../db/json-records.js';
import type { OperationLogEntry, OperationLogWriter } from './operation-log.js';

export type OperationLogTables = {
  audit_operation_logs: {
    id: Generated<number>;
    /** Null for an anonymous entry (migration 0019): only platform admins read those. */
    tenant_id: number | null;
    user_id: number | null;
    username: string;
    module: string;
    action: string;
    method: string;
    path: string;
    status: number;
    ip: string;
    user_agent: string;
    latency_ms: number;
    request_id: string;
    request_body: string | null;
    response_body: string | null;
    created_at: Date;
    /** No principal was established (migration 0015); default false. */
    anonymous: Generated<boolean>;
  };
};

/** A batch still running after this is cancelled by the server (PostgreSQL). */
export const WRITE_STATEMENT_TIMEOUT_MS = 2000;

/**
 * One INSERT for a batch, its rows passed as a single JSON parameter (`jsonRecords`). An
 * anonymous entry (no tenant established) is stored without a tenant, flagged `anonymous`: no
 * tenant's log readers see it, only platform admins; the tenant a request body names is never
 * used (anyone could name any tenant).
 */
export async function insertOperationLogs(
  db: Kysely<OperationLogTables>,
  entries: OperationLogEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await sql`
    INSERT INTO audit_operation_logs (tenant_id, anonymous, user_id, username, module, action,
      method, path, status, ip, user_agent, latency_ms, request_id, request_body, response_body,
      created_at)
    SELECT e."tenantId", e.anonymous, e."userId", e.username,
      e.module, e.action, e.method, e.path, e.status, e.ip, e."userAgent", e."latencyMs",
      e."requestId", e."requestBody", e."responseBody", e."createdAt"
    FROM json_to_recordset(${jsonRecords(entries)}::json) AS e("tenantId" bigint,
      anonymous boolean, "userId" bigint, username text, module text, action text,
      method text, path text, status integer, ip text, "userAgent" text, "latencyMs" integer,
      "requestId" text, "requestBody" text, "responseBody" text, "createdAt" timestamptz)`.execute(
    db,
  );
}

export interface OperationLogSink {
  write: OperationLogWriter;
  close(): Promise<void>;
}

/**
 * Where the recorder writes. On PostgreSQL (`url`): a connection of its own, so a batch never
 * takes one a request is waiting for, configured once for every batch: a 2 s statement_timeout
 * (a stuck database releases it even after the recorder stopped waiting) and asynchronous
 * commit (the recorder already holds up to a second of entries in memory; not waiting for the
 * WAL flush adds nothing a crash could lose beyond that window). Each batch is then a single
 * statement. Without `url` (embedded PGlite: one in-process connection) it writes through `db`.
 */
export function openOperationLogSink(options: {
  url: string | undefined;
  db?: Kysely<OperationLogTables> | undefined;
  logger: Logger;
}): OperationLogSink {
  if (!options.url) {
    const db = options.db;
    if (!db) throw new Error('the operation-log sink needs DATABASE_URL or a database');
    return { write: (entries) => insertOperationLogs(db, entries), close: async () => {} };
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 1,
    options: `-c statement_timeout=${WRITE_STATEMENT_TIMEOUT_MS} -c synchronous_commit=off`,
  });
  listenForConnectionErrors(pool, options.logger, 'operation-log connection lost');
  const db = new Kysely<OperationLogTables>({ dialect: new PostgresDialect({ pool }) });
  return { write: (entries) => insertOperationLogs(db, entries), close: () => db.destroy() };
}
