import type { BpmDb } from '../bpm.tables.js';

/** The newest instance of a business anchor; tenant-scoped when the back end names a tenant. */
export function newestByAnchor(
  db: BpmDb,
  bizType: string,
  bizId: string,
  tenantId: number | undefined,
) {
  let query = db
    .selectFrom('bpm_instances')
    .selectAll()
    .where('biz_type', '=', bizType)
    .where('biz_id', '=', bizId);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
}
