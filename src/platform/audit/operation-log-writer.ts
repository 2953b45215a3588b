import { sql, type Generated, type Kysely } from 'kysely';
import type { OperationLogEntry, OperationLogWriter } from './operation-log.js';

export type OperationLogTables = {
  audit_operation_logs: {
    id: Generated<number>;
    tenant_id: number;
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
  };
};

// PostgreSQL text cannot hold NUL: one such character would fail the whole batch.
const text = (value: string) => value.replaceAll('\u0000', '\uFFFD');
const textOrNull = (value: string | null) => (value === null ? null : text(value));

/** The tenant every request without a resolvable tenant is attributed to (`default`). */
export const DEFAULT_TENANT_ID = 1;

/**
 * One multi-row INSERT for a batch. A request without a token is attributed to the tenant whose
 * code it named, else to `default`; the statement is bounded by a 2 s statement_timeout so a
 * stuck database releases the connection even after the recorder stopped waiting.
 */
export async function insertOperationLogs(
  db: Kysely<OperationLogTables>,
  entries: OperationLogEntry[],
  statementTimeoutMs = 2000,
): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    tenant_id:
      e.tenantId ??
      (e.tenantCode === null
        ? DEFAULT_TENANT_ID
        : sql<number>`coalesce((SELECT t.id FROM iam_tenants t WHERE t.code = ${text(e.tenantCode)}), ${DEFAULT_TENANT_ID})`),
    user_id: e.userId,
    username: text(e.username),
    module: text(e.module),
    action: text(e.action),
    method: text(e.method),
    path: text(e.path),
    status: e.status,
    ip: text(e.ip),
    user_agent: text(e.userAgent),
    latency_ms: e.latencyMs,
    request_id: text(e.requestId),
    request_body: textOrNull(e.requestBody),
    response_body: textOrNull(e.responseBody),
    created_at: e.createdAt,
  }));
  const timeout = Math.max(1, Math.floor(statementTimeoutMs));
  await db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('statement_timeout', ${String(timeout)}, true)`.execute(trx);
    await trx.insertInto('audit_operation_logs').values(rows).execute();
  });
}

/** The recorder's writer over the process's database. */
export function databaseWriter(db: Kysely<OperationLogTables>): OperationLogWriter {
  return (entries) => insertOperationLogs(db, entries);
}
