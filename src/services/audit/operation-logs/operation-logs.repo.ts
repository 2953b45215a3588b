import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { OperationLogTables } from '../../../platform/audit/operation-log-writer.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import type { Page } from '../../../platform/http/envelope.js';
import { sqlCsvLines, sqlNeutralizeFormula, type CsvPage } from '../../../platform/http/csv.js';
import {
  EXPORT_COLUMNS,
  type OperationLogFilter,
  type StatsQuery,
} from './operation-logs.schema.js';

export type OperationLogDb = Kysely<OperationLogTables>;

/** A list row: the table's columns without the two bodies. */
export type OperationLogRow = Omit<
  Selectable<OperationLogTables['audit_operation_logs']>,
  'request_body' | 'response_body'
>;

export interface OperationLogDetailRow extends OperationLogRow {
  request_body: string | null;
  response_body: string | null;
}

const ITEM_COLUMNS = [
  'id',
  'tenant_id',
  'anonymous',
  'user_id',
  'username',
  'module',
  'action',
  'method',
  'path',
  'status',
  'ip',
  'user_agent',
  'latency_ms',
  'request_id',
  'created_at',
] as const;

type Eb = ExpressionBuilder<OperationLogTables, 'audit_operation_logs'>;
type TextColumn =
  | 'username'
  | 'module'
  | 'action'
  | 'method'
  | 'path'
  | 'ip'
  | 'user_agent'
  | 'request_id'
  | 'request_body'
  | 'response_body';

/**
 * Whose entries a reader sees: their tenant's and, for a platform admin, the anonymous ones
 * (stored without a tenant, since no principal was established).
 */
export interface LogScope {
  tenantId: number;
  anonymous: boolean;
}

/** The tenant ids a scope reads: its tenant, then null (the anonymous entries) if it may. */
const tenantsOf = (scope: LogScope): Array<number | null> =>
  scope.anonymous ? [scope.tenantId, null] : [scope.tenantId];

function inScope(eb: Eb, scope: LogScope) {
  const own = eb('tenant_id', '=', scope.tenantId);
  return scope.anonymous ? eb.or([own, eb('tenant_id', 'is', null)]) : own;
}

/** The filter as one SQL condition over one tenant's entries (null: the anonymous ones). */
function matching(tenant: number | null, filter: OperationLogFilter) {
  return (eb: Eb) => {
    const c = [tenant === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenant)];
    if (filter.anonymous !== undefined) c.push(eb('anonymous', '=', filter.anonymous));
    if (filter.user_id !== undefined) c.push(eb('user_id', '=', filter.user_id));
    if (filter.username) c.push(eb('username', 'ilike', containsPattern(filter.username)));
    if (filter.module) c.push(eb('module', '=', filter.module));
    if (filter.method) c.push(eb('method', '=', filter.method));
    if (filter.status !== undefined) c.push(eb('status', '=', filter.status));
    if (filter.path) c.push(eb('path', 'ilike', containsPattern(filter.path)));
    if (filter.request_id) c.push(eb('request_id', '=', filter.request_id));
    if (filter.start_time) c.push(eb('created_at', '>=', filter.start_time));
    if (filter.end_time) c.push(eb('created_at', '<', filter.end_time));
    return eb.and(c);
  };
}

/** The filter over every tenant id of the scope. */
const matchingScope = (scope: LogScope, filter: OperationLogFilter) => (eb: Eb) =>
  eb.or(tenantsOf(scope).map((tenant) => matching(tenant, filter)(eb)));

export async function listOperationLogs(
  db: OperationLogDb,
  scope: LogScope,
  filter: OperationLogFilter,
  page: Page,
): Promise<{ rows: OperationLogRow[]; total: number }> {
  // One newest-first index range per tenant id, each cut at the page's end, then merged: an OR of
  // the two would sort every matching row of the tenant to serve one page.
  const newest = (tenant: number | null) =>
    db
      .selectFrom('audit_operation_logs')
      .select(ITEM_COLUMNS)
      .where(matching(tenant, filter))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.offset + page.pageSize);
  const [own, anonymous] = tenantsOf(scope).map(newest);
  const merged = anonymous
    ? db
        .selectFrom(own!.as('own'))
        .selectAll()
        .unionAll(db.selectFrom(anonymous.as('anonymous')).selectAll())
    : db.selectFrom(own!.as('own')).selectAll();
  const [rows, count] = await Promise.all([
    db
      .selectFrom(merged.as('merged'))
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('audit_operation_logs')
      .where(matchingScope(scope, filter))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findOperationLog(
  db: OperationLogDb,
  scope: LogScope,
  id: number,
): Promise<OperationLogDetailRow | undefined> {
  return db
    .selectFrom('audit_operation_logs')
    .select([...ITEM_COLUMNS, 'request_body', 'response_body'])
    .where((eb) => inScope(eb, scope))
    .where('id', '=', id)
    .executeTakeFirst();
}

// Export columns that never need CSV quotes: numbers and the ISO time.
const PLAIN_COLUMNS = [
  'id',
  'tenant_id',
  'anonymous',
  'user_id',
  'status',
  'latency_ms',
  'created_at',
];

/** Where the previous export page ended (newest first): its last row's time, to the µs, and id. */
export interface ExportCursor {
  at: string;
  id: number;
}

/**
 * One page of the CSV export, newest first (created_at desc, id desc), after `after` (keyset:
 * every page costs the same), formatted by the database: text cells a spreadsheet would run
 * as a formula get a leading `'`; times in ISO 8601 UTC with milliseconds (truncated, as
 * `Date#toISOString` of the driver's value).
 */
export async function readOperationLogCsvPage(
  db: OperationLogDb,
  scope: LogScope,
  filter: OperationLogFilter,
  after: ExportCursor | undefined,
  limit: number,
): Promise<CsvPage<ExportCursor>> {
  const text = (column: TextColumn) => sqlNeutralizeFormula(column).as(column);
  const pageOf = (tenant: number | null) => {
    let query = db.selectFrom('audit_operation_logs').where(matching(tenant, filter));
    if (after) {
      query = query.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id})`);
    }
    return query
      .select([
        'id',
        'tenant_id',
        'anonymous',
        'user_id',
        text('username'),
        text('module'),
        text('action'),
        text('method'),
        text('path'),
        'status',
        text('ip'),
        text('user_agent'),
        'latency_ms',
        text('request_id'),
        text('request_body'),
        text('response_body'),
        sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
          'created_at',
        ),
        'created_at as sort_at',
      ])
      .orderBy('sort_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
  };
  // One keyset range per tenant id, merged (as in listOperationLogs).
  const [own, anonymous] = tenantsOf(scope).map(pageOf);
  const merged = anonymous
    ? db
        .selectFrom(own!.as('own'))
        .selectAll()
        .unionAll(db.selectFrom(anonymous.as('anonymous')).selectAll())
    : db.selectFrom(own!.as('own')).selectAll();
  const page = db
    .selectFrom(merged.as('merged'))
    .selectAll()
    .orderBy('sort_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  const result = await db
    .selectFrom(page.as('page'))
    .select([
      sqlCsvLines(EXPORT_COLUMNS, sql`sort_at DESC, id DESC`, PLAIN_COLUMNS).as('lines'),
      sql<number>`count(*)::int`.as('rows'),
      // The last row in export order: the oldest time, and of that time the lowest id.
      sql<string>`to_char(min(sort_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'last_at',
      ),
      sql<number>`(array_agg(id ORDER BY sort_at, id))[1]`.as('last_id'),
    ])
    .executeTakeFirstOrThrow();
  return {
    lines: result.lines,
    rows: result.rows,
    last: { at: result.last_at, id: result.last_id },
  };
}

function statsWhere(scope: LogScope, range: StatsQuery) {
  const c = [
    scope.anonymous
      ? sql`(tenant_id = ${scope.tenantId} OR tenant_id IS NULL)`
      : sql`tenant_id = ${scope.tenantId}`,
  ];
  if (range.start_time) c.push(sql`created_at >= ${range.start_time}`);
  if (range.end_time) c.push(sql`created_at < ${range.end_time}`);
  return sql.join(c, sql` AND `);
}

export async function operationLogTotals(db: OperationLogDb, scope: LogScope, range: StatsQuery) {
  const { rows } = await sql<{ total: number; errors: number; avg: number; p95: number }>`
    SELECT count(*)::int AS total,
           (count(*) FILTER (WHERE status >= 400))::int AS errors,
           coalesce(avg(latency_ms), 0)::float8 AS avg,
           coalesce(percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms), 0)::float8 AS p95
    FROM audit_operation_logs WHERE ${statsWhere(scope, range)}`.execute(db);
  return rows[0]!;
}

export async function countOperationLogsByModule(
  db: OperationLogDb,
  scope: LogScope,
  range: StatsQuery,
) {
  const { rows } = await sql<{ module: string; count: number }>`
    SELECT module, count(*)::int AS count FROM audit_operation_logs
    WHERE ${statsWhere(scope, range)} GROUP BY module ORDER BY count DESC, module`.execute(db);
  return rows;
}

export async function countOperationLogsByStatus(
  db: OperationLogDb,
  scope: LogScope,
  range: StatsQuery,
) {
  const { rows } = await sql<{ status: number; count: number }>`
    SELECT status, count(*)::int AS count FROM audit_operation_logs
    WHERE ${statsWhere(scope, range)} GROUP BY status ORDER BY status`.execute(db);
  return rows;
}

export async function topOperationLogPaths(
  db: OperationLogDb,
  scope: LogScope,
  range: StatsQuery,
  limit: number,
) {
  const { rows } = await sql<{ path: string; count: number; avg_latency_ms: number }>`
    SELECT path, count(*)::int AS count, avg(latency_ms)::float8 AS avg_latency_ms
    FROM audit_operation_logs WHERE ${statsWhere(scope, range)}
    GROUP BY path ORDER BY count DESC, path LIMIT ${limit}`.execute(db);
  return rows;
}

/** Deletes the logs of `scope` created before `before`; returns how many. */
export async function deleteOperationLogsBefore(
  db: OperationLogDb,
  scope: LogScope,
  before: Date,
): Promise<number> {
  const result = await db
    .deleteFrom('audit_operation_logs')
    .where((eb) => inScope(eb, scope))
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
