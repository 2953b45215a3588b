import { sql } from 'kysely';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import type { Page } from '../../../platform/http/envelope.js';
import type { Sort } from '../../../platform/http/sort.js';
import type { BpmDb } from '../bpm.tables.js';
import type { MY_SORT } from './instances.schema.js';

// Read-side queries of instances and their timeline; every one tenant-scoped.

export interface InstanceFilter {
  status?: string | undefined;
  definition_key?: string | undefined;
  initiator_id?: number | undefined;
  /** Part of the title, the business id or the definition key, matched as literal text. */
  keyword?: string | undefined;
  /** Started at or after. */
  start_time?: Date | undefined;
  /** Started before. */
  end_time?: Date | undefined;
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
  if (filter.start_time) query = query.where('created_at', '>=', filter.start_time);
  if (filter.end_time) query = query.where('created_at', '<', filter.end_time);
  if (filter.keyword) {
    const pattern = containsPattern(filter.keyword);
    query = query.where((eb) =>
      eb.or([
        eb('title', 'ilike', pattern),
        eb('biz_id', 'ilike', pattern),
        eb('definition_key', 'ilike', pattern),
      ]),
    );
  }
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
