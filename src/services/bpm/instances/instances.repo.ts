import { sql } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { Sort } from '../../../platform/http/sort.js';
import type { BpmDb } from '../bpm.tables.js';
import type { MY_SORT } from './instances.schema.js';

// Read-side queries of instances and their timeline; every one tenant-scoped.

export interface InstanceFilter {
  status?: string | undefined;
  definition_key?: string | undefined;
  initiator_id?: number | undefined;
}

/** A whitelisted key; `id` breaks ties so pages never overlap or skip. */
export type InstanceSort = Sort<(typeof MY_SORT)[number]>;

export async function listInstances(
  db: BpmDb,
  tenantId: number,
  filter: InstanceFilter,
  page: Page,
  sort: InstanceSort = {},
) {
  const order = sort.order ?? 'desc';
  let query = db.selectFrom('bpm_instances').where('tenant_id', '=', tenantId);
  if (filter.status) query = query.where('status', '=', filter.status as never);
  if (filter.definition_key) query = query.where('definition_key', '=', filter.definition_key);
  if (filter.initiator_id !== undefined)
    query = query.where('initiator_id', '=', filter.initiator_id);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .$call((q) => (sort.sort ? q.orderBy(sort.sort, order) : q))
      .orderBy('id', order)
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export function timeline(db: BpmDb, tenantId: number, instanceId: number) {
  return db
    .selectFrom('bpm_logs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('instance_id', '=', instanceId)
    .orderBy('id')
    .execute();
}
