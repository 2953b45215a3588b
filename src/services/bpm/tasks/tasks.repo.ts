import { sql } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { Sort } from '../../../platform/http/sort.js';
import type { BpmDb } from '../bpm.tables.js';
import type { FieldChange } from '../engine/index.js';
import type { DONE_SORT, TODO_SORT } from './tasks.schema.js';

// The approver's lists; every query tenant-scoped.

// The columns each whitelisted sort key orders by; `id` breaks ties so pages never overlap.
const todoSortColumn = { created_at: 't.created_at', title: 'i.title' } as const;
const doneSortColumn = {
  created_at: 't.created_at',
  finished_at: 't.finished_at',
  title: 'i.title',
} as const;

const taskColumns = [
  't.id',
  't.instance_id',
  't.node_id',
  't.node_name',
  't.kind',
  't.assignee_id',
  't.original_assignee_id',
  't.delegator_id',
  't.on_behalf_of_id',
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
  sort: Sort<(typeof TODO_SORT)[number]> = {},
) {
  const order = sort.order ?? 'desc';
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
      .$call((q) => (sort.sort ? q.orderBy(todoSortColumn[sort.sort], order) : q))
      .orderBy('t.id', order)
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** Tasks the user finished themselves (auto results by the system are not theirs). */
export async function listDone(
  db: BpmDb,
  tenantId: number,
  userId: number,
  page: Page,
  sort: Sort<(typeof DONE_SORT)[number]> = {},
) {
  const order = sort.order ?? 'desc';
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
      .orderBy(doneSortColumn[sort.sort ?? 'finished_at'], order)
      .orderBy('t.id', order)
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** The open (pending or waiting) approval tasks a user holds, oldest first. */
export async function openTasksOf(db: BpmDb, tenantId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('bpm_tasks')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('assignee_id', '=', userId)
    .where('kind', '=', 'approval')
    .where('status', 'in', ['pending', 'waiting'])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The form edits the operator's latest approval of a task's node and round made: its `edit`
 * entry is written just before its `approve` entry, so the two are the operator's last entries
 * there. None when the approval edited nothing.
 */
export async function editsOfLastApproval(
  db: BpmDb,
  instanceId: number,
  task: { nodeId: string; round: number },
  operatorId: number,
): Promise<FieldChange[]> {
  const [last, before] = await db
    .selectFrom('bpm_logs')
    .select(['action', 'details'])
    .where('instance_id', '=', instanceId)
    .where('node_id', '=', task.nodeId)
    .where('round', '=', task.round)
    .where('operator_id', '=', operatorId)
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
  if (last?.action !== 'approve' || before?.action !== 'edit') return [];
  const changes = before.details?.changes;
  return Array.isArray(changes) ? (changes as FieldChange[]) : [];
}

/**
 * The tasks `userId` passed on (transferred or delegated), newest hand-over first, with where
 * each is now: read from the process log, whose hand-over entries name their task.
 */
export async function listHandedOver(db: BpmDb, tenantId: number, userId: number, page: Page) {
  const handed = db
    .selectFrom('bpm_logs as l')
    .innerJoin('bpm_tasks as t', (join) =>
      join
        .onRef('t.instance_id', '=', 'l.instance_id')
        .on('t.id', '=', sql<number>`(l.details ->> 'task_id')::bigint`),
    )
    .innerJoin('bpm_instances as i', 'i.id', 't.instance_id')
    .where('l.tenant_id', '=', tenantId)
    .where('l.operator_id', '=', userId)
    .where('l.action', 'in', ['transfer', 'delegate']);
  const [rows, count] = await Promise.all([
    handed
      .select([
        ...taskColumns,
        'l.action as handover',
        sql<number>`(l.details ->> 'to_user_id')::bigint`.as('handed_to_id'),
        'l.created_at as handed_at',
      ])
      .orderBy('l.id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    handed.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}
