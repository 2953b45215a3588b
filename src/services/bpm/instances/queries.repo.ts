import { sql } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { BpmDb } from '../bpm.tables.js';

// Read-side queries of instances, tasks, the timeline and CC records; every one tenant-scoped.

export interface InstanceFilter {
  status?: string | undefined;
  definition_key?: string | undefined;
  initiator_id?: number | undefined;
}

export async function listInstances(
  db: BpmDb,
  tenantId: number,
  filter: InstanceFilter,
  page: Page,
) {
  let query = db.selectFrom('bpm_instances').where('tenant_id', '=', tenantId);
  if (filter.status) query = query.where('status', '=', filter.status as never);
  if (filter.definition_key) query = query.where('definition_key', '=', filter.definition_key);
  if (filter.initiator_id !== undefined)
    query = query.where('initiator_id', '=', filter.initiator_id);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(page.offset).execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** Whether `userId` may see the instance: initiator, a task holder (now or before), a CC recipient. */
export async function isParticipant(
  db: BpmDb,
  tenantId: number,
  instanceId: number,
  userId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('bpm_instances as i')
    .select(
      sql<boolean>`
      i.initiator_id = ${userId}
      OR EXISTS (SELECT 1 FROM bpm_tasks t WHERE t.instance_id = i.id
                 AND (t.assignee_id = ${userId} OR t.original_assignee_id = ${userId} OR t.delegator_id = ${userId}))
      OR EXISTS (SELECT 1 FROM bpm_cc c WHERE c.instance_id = i.id AND c.user_id = ${userId})`.as(
        'visible',
      ),
    )
    .where('i.tenant_id', '=', tenantId)
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
  return row?.visible === true;
}

const taskColumns = [
  't.id',
  't.instance_id',
  't.node_id',
  't.node_name',
  't.kind',
  't.assignee_id',
  't.original_assignee_id',
  't.delegator_id',
  't.status',
  't.result',
  't.round',
  't.comment',
  't.created_at',
  't.due_at',
  't.finished_at',
  'i.title as instance_title',
  'i.definition_key',
  'i.initiator_id',
] as const;

/** Pending tasks of a user (delegated ones show for the delegatee, who now holds them). */
export async function listTodo(
  db: BpmDb,
  tenantId: number,
  userId: number,
  definitionKey: string | undefined,
  page: Page,
) {
  let query = db
    .selectFrom('bpm_tasks as t')
    .innerJoin('bpm_instances as i', 'i.id', 't.instance_id')
    .where('t.tenant_id', '=', tenantId)
    .where('t.assignee_id', '=', userId)
    .where('t.status', '=', 'pending');
  if (definitionKey) query = query.where('i.definition_key', '=', definitionKey);
  const [rows, count] = await Promise.all([
    query
      .select(taskColumns)
      .orderBy('t.id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** Tasks the user finished themselves (auto results by the system are not theirs). */
export async function listDone(db: BpmDb, tenantId: number, userId: number, page: Page) {
  const query = db
    .selectFrom('bpm_tasks as t')
    .innerJoin('bpm_instances as i', 'i.id', 't.instance_id')
    .where('t.tenant_id', '=', tenantId)
    .where('t.assignee_id', '=', userId)
    .where('t.status', '=', 'done')
    .where('t.result', 'not in', ['auto_approved', 'auto_rejected']);
  const [rows, count] = await Promise.all([
    query
      .select(taskColumns)
      .orderBy('t.finished_at', 'desc')
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

export async function listCc(
  db: BpmDb,
  tenantId: number,
  userId: number,
  unreadOnly: boolean,
  page: Page,
) {
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
      .orderBy('c.id', 'desc')
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
