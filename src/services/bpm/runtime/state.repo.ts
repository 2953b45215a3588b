import { sql, type Selectable } from 'kysely';
import type { BpmDb, BpmTables } from '../bpm.tables.js';
import type { InstanceState, TaskState } from '../engine/index.js';

export type InstanceRow = Selectable<BpmTables['bpm_instances']>;
export type TaskRow = Selectable<BpmTables['bpm_tasks']>;

export const LIVE_ANCHOR_CONSTRAINT = 'bpm_instances_live_anchor';

const ms = (d: Date | null) => (d ? d.getTime() : null);

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
