import { sql, type Kysely } from 'kysely';
import type { AuditTables } from '../../../platform/audit/business-audit.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import { sqlCsvLines, sqlNeutralizeFormula, type CsvPage } from '../../../platform/http/csv.js';
import type { Page } from '../../../platform/http/envelope.js';

export interface BusinessAuditFilter {
  keyword?: string | undefined;
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  actor_id?: number | undefined;
  start_time?: string | undefined;
  end_time?: string | undefined;
}

export function filtered(db: Kysely<AuditTables>, tenantId: number, f: BusinessAuditFilter) {
  let query = db.selectFrom('audit_business_logs').where('tenant_id', '=', tenantId);
  if (f.action) query = query.where('action', '=', f.action);
  if (f.target_type) query = query.where('target_type', '=', f.target_type);
  if (f.target_id) query = query.where('target_id', '=', f.target_id);
  if (f.actor_id !== undefined) query = query.where('actor_id', '=', f.actor_id);
  if (f.start_time) query = query.where('created_at', '>=', new Date(f.start_time));
  if (f.end_time) query = query.where('created_at', '<=', new Date(f.end_time));
  if (f.keyword) {
    const pattern = containsPattern(f.keyword);
    query = query.where((eb) =>
      eb.or([
        eb('summary', 'ilike', pattern),
        eb('actor_name', 'ilike', pattern),
        eb('target_id', 'ilike', pattern),
      ]),
    );
  }
  return query;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'actor_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
  'summary',
  'created_at',
] as const;

export async function listBusinessAudit(
  db: Kysely<AuditTables>,
  tenantId: number,
  f: BusinessAuditFilter,
  page: Page,
) {
  const query = filtered(db, tenantId, f);
  const facet = (column: 'action' | 'target_type') =>
    query
      .select([column, sql<number>`count(*)::int`.as('count')])
      .groupBy(column)
      .orderBy('count', 'desc')
      .orderBy(column)
      .limit(50)
      .execute();
  const [rows, count, actions, targetTypes] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    facet('action'),
    facet('target_type'),
  ]);
  return {
    rows,
    total: count.total,
    facets: {
      action: actions.map((r) => ({ value: r.action, count: r.count })),
      target_type: targetTypes.map((r) => ({ value: r.target_type, count: r.count })),
    },
  };
}

/** The CSV export's columns, in order (its header line). */
export const BUSINESS_AUDIT_CSV_COLUMNS = [
  'id',
  'created_at',
  'actor_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'summary',
  'before',
  'after',
] as const;

/**
 * One page of the CSV export, newest first, after id `afterId` (keyset: every page costs the
 * same), formatted by the database: times in ISO 8601 UTC with milliseconds (truncated, as
 * `Date#toISOString` of the driver's value), JSON as PostgreSQL prints it, `null` when absent,
 * text that a spreadsheet would run as a formula prefixed with `'`.
 */
export async function readBusinessAuditCsvPage(
  db: Kysely<AuditTables>,
  tenantId: number,
  f: BusinessAuditFilter,
  afterId: number | undefined,
  limit: number,
): Promise<CsvPage<number>> {
  let query = filtered(db, tenantId, f);
  if (afterId !== undefined) query = query.where('id', '<', afterId);
  const page = query
    .select([
      'id',
      sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
        'created_at',
      ),
      'actor_id',
      // Text a client chose: a leading `=`, `+`, `-`, `@` would run as a spreadsheet formula.
      sqlNeutralizeFormula('actor_name').as('actor_name'),
      sqlNeutralizeFormula('action').as('action'),
      sqlNeutralizeFormula('target_type').as('target_type'),
      sqlNeutralizeFormula('target_id').as('target_id'),
      sqlNeutralizeFormula('summary').as('summary'),
      sql<string>`coalesce(before::text, 'null')`.as('before'),
      sql<string>`coalesce(after::text, 'null')`.as('after'),
    ])
    .orderBy('id', 'desc')
    .limit(limit);
  return db
    .selectFrom(page.as('page'))
    .select([
      sqlCsvLines(BUSINESS_AUDIT_CSV_COLUMNS, sql`id DESC`, ['id', 'created_at', 'actor_id']).as(
        'lines',
      ),
      sql<number>`count(*)::int`.as('rows'),
      sql<number>`min(id)`.as('last'),
    ])
    .executeTakeFirstOrThrow();
}
