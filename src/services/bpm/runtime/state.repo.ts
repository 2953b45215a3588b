import { sql, type Selectable } from 'kysely';
import type { BpmDb, BpmTables } from '../bpm.tables.js';
import {
  allNodes,
  isTerminal,
  type FlowNode,
  type InstanceState,
  type TaskState,
} from '../engine/index.js';

export type InstanceRow = Selectable<BpmTables['bpm_instances']>;
export type TaskRow = Selectable<BpmTables['bpm_tasks']>;

export const LIVE_ANCHOR_CONSTRAINT = 'bpm_instances_live_anchor';

const ms = (d: Date | null) => (d ? d.getTime() : null);
const date = (n: number | null) => (n === null ? null : new Date(n));

export function taskStateOf(row: TaskRow): TaskState {
  return {
    id: row.id,
    nodeId: row.node_id,
    kind: row.kind,
    assigneeId: row.assignee_id,
    originalAssigneeId: row.original_assignee_id,
    delegatorId: row.delegator_id,
    status: row.status,
    result: row.result as TaskState['result'],
    round: row.round,
    seq: row.seq,
    comment: row.comment,
    createdAt: row.created_at.getTime(),
    dueAt: ms(row.due_at),
    finishedAt: ms(row.finished_at),
    addedBySign: row.added_by_sign,
    urgedAt: ms(row.urged_at),
    onBehalfOfId: row.on_behalf_of_id,
    timeoutCount: row.timeout_count,
  };
}

export function instanceStateOf(row: InstanceRow, tasks: TaskRow[]): InstanceState {
  return {
    status: row.status,
    round: row.round,
    form: row.form as InstanceState['form'],
    initiatorId: row.initiator_id,
    initiatorDeptId: row.initiator_dept_id,
    initiatorRoleIds: row.initiator_role_ids,
    selectedAssignees: row.selected_assignees,
    path: row.path,
    currentNodeId: row.current_node_id,
    suspendReason: row.suspend_reason,
    tasks: tasks.map(taskStateOf),
  };
}

/** A task's instance and holder, for actions addressed by task id; undefined for no such task. */
export async function taskRefOf(
  db: BpmDb,
  tenantId: number,
  taskId: number,
): Promise<{ instance_id: number; assignee_id: number } | undefined> {
  return db
    .selectFrom('bpm_tasks')
    .select(['instance_id', 'assignee_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', taskId)
    .executeTakeFirst();
}

export interface NewInstance {
  tenant_id: number;
  definition_id: number;
  definition_key: string;
  definition_version: number;
  title: string;
  initiator_id: number;
  initiator_dept_id: number | null;
  initiator_role_ids: number[];
  biz_type: string;
  biz_id: string;
  form: Record<string, unknown>;
  selected_assignees: Record<string, number[]>;
}

/**
 * Inserts the instance as running before the engine's first step, so the partial unique index
 * on the live anchor decides a race of two starts before any task exists.
 */
export function insertInstance(db: BpmDb, row: NewInstance): Promise<InstanceRow> {
  return db
    .insertInto('bpm_instances')
    .values({
      ...row,
      status: 'running',
      round: 1,
      current_node_id: null,
      suspend_reason: null,
      finished_at: null,
      initiator_role_ids: JSON.stringify(row.initiator_role_ids),
      form: JSON.stringify(row.form),
      selected_assignees: JSON.stringify(row.selected_assignees),
      path: '[]',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Writes the engine's new state: the instance columns (the row as stored is returned), every
 * new task (temporary negative ids mapped to real ones, returned) and every task whose fields
 * changed.
 */
export async function saveState(
  db: BpmDb,
  instance: InstanceRow,
  tree: FlowNode,
  before: InstanceState,
  after: InstanceState,
): Promise<{ row: InstanceRow; ids: Map<number, number> }> {
  const row = await db
    .updateTable('bpm_instances')
    .set({
      status: after.status,
      round: after.round,
      form: JSON.stringify(after.form),
      path: JSON.stringify(after.path),
      current_node_id: after.currentNodeId,
      suspend_reason: after.suspendReason ? JSON.stringify(after.suspendReason) : null,
      updated_at: sql<Date>`now()`,
      finished_at:
        isTerminal(after.status) && !isTerminal(before.status)
          ? sql<Date>`now()`
          : instance.finished_at,
    })
    .where('id', '=', instance.id)
    .returningAll()
    .executeTakeFirstOrThrow();

  const names = new Map(allNodes(tree).map((n) => [n.id, n.name]));
  const previous = new Map(before.tasks.map((t) => [t.id, t]));
  const ids = new Map<number, number>();
  const created = after.tasks.filter((t) => t.id < 0);
  if (created.length > 0) {
    const rows = await db
      .insertInto('bpm_tasks')
      .values(
        created.map((t) => ({
          tenant_id: instance.tenant_id,
          instance_id: instance.id,
          node_id: t.nodeId,
          node_name: names.get(t.nodeId) ?? t.nodeId,
          kind: t.kind,
          assignee_id: t.assigneeId,
          original_assignee_id: t.originalAssigneeId,
          delegator_id: t.delegatorId,
          status: t.status,
          result: t.result,
          round: t.round,
          seq: t.seq,
          comment: t.comment,
          added_by_sign: t.addedBySign,
          created_at: new Date(t.createdAt),
          due_at: date(t.dueAt),
          finished_at: date(t.finishedAt),
          urged_at: date(t.urgedAt),
          on_behalf_of_id: t.onBehalfOfId,
          timeout_count: t.timeoutCount,
        })),
      )
      .returning('id')
      .execute();
    created.forEach((t, i) => ids.set(t.id, rows[i]!.id));
  }
  for (const t of after.tasks) {
    const old = previous.get(t.id);
    if (!old || t.id < 0 || JSON.stringify(old) === JSON.stringify(t)) continue;
    await db
      .updateTable('bpm_tasks')
      .set({
        assignee_id: t.assigneeId,
        original_assignee_id: t.originalAssigneeId,
        delegator_id: t.delegatorId,
        status: t.status,
        result: t.result,
        comment: t.comment,
        due_at: date(t.dueAt),
        finished_at: date(t.finishedAt),
        urged_at: date(t.urgedAt),
        on_behalf_of_id: t.onBehalfOfId,
        timeout_count: t.timeoutCount,
        // The timeout scanner handles a task once (`reminded_at`); a task that is pending again,
        // in new hands or under a new deadline is due to be handled again.
        ...(needsTimeoutAgain(old, t) ? { reminded_at: null } : {}),
      })
      .where('id', '=', t.id)
      .execute();
  }
  return { row, ids };
}

function needsTimeoutAgain(before: TaskState, after: TaskState): boolean {
  return (
    (after.status === 'pending' && before.status !== 'pending') ||
    after.assigneeId !== before.assigneeId ||
    after.dueAt !== before.dueAt
  );
}

/** The frozen definition version an instance runs on (never the key's newest). */
export async function frozenDefinition(db: BpmDb, tenantId: number, definitionId: number) {
  return db
    .selectFrom('bpm_definitions')
    .select(['node_tree', 'form_schema'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', definitionId)
    .executeTakeFirstOrThrow();
}

/**
 * The nodes through which `userId` reached an instance besides the tasks they hold: CC records
 * addressed to them, and nodes they acted on (a transfer, a delegation, a resolve leave the
 * task in other hands, but the log keeps who acted where).
 */
export async function reachedNodesOf(
  db: BpmDb,
  tenantId: number,
  instanceId: number,
  userId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('bpm_cc')
    .select('node_id')
    .where('tenant_id', '=', tenantId)
    .where('instance_id', '=', instanceId)
    .where('user_id', '=', userId)
    .union(
      db
        .selectFrom('bpm_logs')
        .select(sql<string>`node_id`.as('node_id'))
        .where('tenant_id', '=', tenantId)
        .where('instance_id', '=', instanceId)
        .where('operator_id', '=', userId)
        .where('node_id', 'is not', null),
    )
    .execute();
  return rows.map((r) => r.node_id);
}
