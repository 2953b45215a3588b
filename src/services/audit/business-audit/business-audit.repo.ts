import { sql, type Kysely } from 'kysely';
import type { AuditTables } from '../../../platform/audit/business-audit.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
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

/** Rows for the CSV export in keyset pages of `size`, newest first: memory stays flat. */
export async function* exportBusinessAudit(
  db: Kysely<AuditTables>,
  tenantId: number,
  f: BusinessAuditFilter,
  limit: number,
  size = 1000,
) {
  let before: number | undefined;
  let sent = 0;
  while (sent < limit) {
    let query = filtered(db, tenantId, f);
    if (before !== undefined) query = query.where('id', '<', before);
    const rows = await query
      .select(COLUMNS)
      .orderBy('id', 'desc')
      .limit(Math.min(size, limit - sent))
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) yield row;
    sent += rows.length;
    before = rows.at(-1)!.id;
  }
}
