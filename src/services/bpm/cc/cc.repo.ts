import { sql } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { Sort } from '../../../platform/http/sort.js';
import type { BpmDb } from '../bpm.tables.js';
import type { CC_SORT } from './cc.schema.js';

// CC records of a user; every query tenant-scoped.

// The columns each whitelisted sort key orders by; `id` breaks ties so pages never overlap.
const ccSortColumn = { created_at: 'c.created_at', title: 'i.title' } as const;

export async function listCc(
  db: BpmDb,
  tenantId: number,
  userId: number,
  unreadOnly: boolean,
  page: Page,
  sort: Sort<(typeof CC_SORT)[number]> = {},
) {
  const order = sort.order ?? 'desc';
  let query = db
    .selectFrom('bpm_cc as c')
    .innerJoin('bpm_instances as i', 'i.id', 'c.instance_id')
    .where('c.tenant_id', '=', tenantId)
    .where('c.user_id', '=', userId);
  if (unreadOnly) query = query.where('c.read', '=', false);
  const [rows, count] = await Promise.all([
    query
      .select([
        'c.id',
        'c.instance_id',
        'c.node_id',
        'c.read',
        'c.read_at',
        'c.created_at',
        'i.title as instance_title',
      ])
      .$call((q) => (sort.sort ? q.orderBy(ccSortColumn[sort.sort], order) : q))
      .orderBy('c.id', order)
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** Marks a CC record read once; reading it again changes nothing (the first read_at stays). */
export async function markCcRead(db: BpmDb, tenantId: number, userId: number, id: number) {
  await db
    .updateTable('bpm_cc')
    .set({ read: true, read_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('read', '=', false)
    .execute();
  return db
    .selectFrom('bpm_cc as c')
    .innerJoin('bpm_instances as i', 'i.id', 'c.instance_id')
    .select([
      'c.id',
      'c.instance_id',
      'c.node_id',
      'c.read',
      'c.read_at',
      'c.created_at',
      'i.title as instance_title',
    ])
    .where('c.tenant_id', '=', tenantId)
    .where('c.user_id', '=', userId)
    .where('c.id', '=', id)
    .executeTakeFirst();
}
