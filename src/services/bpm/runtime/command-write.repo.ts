import { sql } from 'kysely';
import type { BpmDb } from '../bpm.tables.js';
import {
  allNodes,
  isTerminal,
  type FlowNode,
  type InstanceState,
  type TaskState,
} from '../engine/index.js';
import type { PlannedEffects } from './effects.repo.js';
import type { InstanceRow } from './state.repo.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A changed task's writable fields, as the statement's recordset reads them. */
function taskFields(t: TaskState) {
  return {
    assignee_id: t.assigneeId,
    original_assignee_id: t.originalAssigneeId,
    delegator_id: t.delegatorId,
    status: t.status,
    result: t.result,
    comment: t.comment,
    due_at: iso(t.dueAt),
    finished_at: iso(t.finishedAt),
    urged_at: iso(t.urgedAt),
    on_behalf_of_id: t.onBehalfOfId,
    timeout_count: t.timeoutCount,
  };
}

/**
 * The timeout scanner handles a task once (`reminded_at`); a task that is pending again, in new
 * hands or under a new deadline is due to be handled again.
 */
function needsTimeoutAgain(before: TaskState, after: TaskState): boolean {
  return (
    (after.status === 'pending' && before.status !== 'pending') ||
    after.assigneeId !== before.assigneeId ||
    after.dueAt !== before.dueAt
  );
}

/**
 * Writes one command's outcome in one statement (data-modifying CTEs): the instance columns,
 * every new task (temporary negative ids), every task whose fields changed, the process log and
 * the outbox rows of `planned`. Answers the instance row as stored and the new tasks' ids, from
 * the statement's RETURNING rows: nothing is read back.
 *
 * Its parts read one snapshot and never touch a row twice: the instance once, new and changed
 * tasks are different rows. A callback's `finished_at` is the stored finish time, formatted as
 * JavaScript's toISOString() does (UTC, milliseconds truncated like the driver's dates).
 */
export async function writeCommand(
  db: BpmDb,
  instance: InstanceRow,
  tree: FlowNode,
  before: InstanceState,
  after: InstanceState,
  planned: PlannedEffects,
): Promise<{ row: InstanceRow; ids: Map<number, number> }> {
  const names = new Map(allNodes(tree).map((n) => [n.id, n.name]));
  const previous = new Map(before.tasks.map((t) => [t.id, t]));
  const created = after.tasks.filter((t) => t.id < 0);
  const changed = after.tasks.filter((t) => {
    const old = previous.get(t.id);
    return old !== undefined && t.id >= 0 && JSON.stringify(old) !== JSON.stringify(t);
  });
  const newTasks = created.map((t) => ({
    node_id: t.nodeId,
    node_name: names.get(t.nodeId) ?? t.nodeId,
    kind: t.kind,
    round: t.round,
    seq: t.seq,
    added_by_sign: t.addedBySign,
    created_at: iso(t.createdAt),
    ...taskFields(t),
  }));
  const taskChanges = changed.map((t) => ({
    id: t.id,
    rearm: needsTimeoutAgain(previous.get(t.id)!, t),
    ...taskFields(t),
  }));
  const finishing = isTerminal(after.status) && !isTerminal(before.status);
  const { rows } = await sql<InstanceRow & { created: [number, string, number][] }>`
    WITH saved AS (
      UPDATE bpm_instances SET
        status = ${after.status},
        round = ${after.round},
        form = ${JSON.stringify(after.form)}::jsonb,
        path = ${JSON.stringify(after.path)}::jsonb,
        current_node_id = ${after.currentNodeId},
        suspend_reason = ${after.suspendReason ? JSON.stringify(after.suspendReason) : null}::jsonb,
        updated_at = now(),
        finished_at = CASE WHEN ${finishing} THEN now() ELSE ${instance.finished_at}::timestamptz END
      WHERE id = ${instance.id}
      RETURNING *
    ), created AS (
      INSERT INTO bpm_tasks (tenant_id, instance_id, node_id, node_name, kind, assignee_id,
        original_assignee_id, delegator_id, status, result, round, seq, comment, added_by_sign,
        created_at, due_at, finished_at, urged_at, on_behalf_of_id, timeout_count)
      SELECT ${instance.tenant_id}, ${instance.id}, node_id, node_name, kind, assignee_id,
        original_assignee_id, delegator_id, status, result, round, seq, comment, added_by_sign,
        created_at, due_at, finished_at, urged_at, on_behalf_of_id, timeout_count
      FROM jsonb_to_recordset(${JSON.stringify(newTasks)}::jsonb) AS t(node_id text,
        node_name text, kind text, assignee_id bigint, original_assignee_id bigint,
        delegator_id bigint, status text, result text, round integer, seq integer, comment text,
        added_by_sign boolean, created_at timestamptz, due_at timestamptz,
        finished_at timestamptz, urged_at timestamptz, on_behalf_of_id bigint,
        timeout_count integer)
      RETURNING id, node_id, assignee_id
    ), changed AS (
      UPDATE bpm_tasks SET
        assignee_id = c.assignee_id,
        original_assignee_id = c.original_assignee_id,
        delegator_id = c.delegator_id,
        status = c.status,
        result = c.result,
        comment = c.comment,
        due_at = c.due_at,
        finished_at = c.finished_at,
        urged_at = c.urged_at,
        on_behalf_of_id = c.on_behalf_of_id,
        timeout_count = c.timeout_count,
        reminded_at = CASE WHEN c.rearm THEN NULL ELSE bpm_tasks.reminded_at END
      FROM jsonb_to_recordset(${JSON.stringify(taskChanges)}::jsonb) AS c(id bigint,
        rearm boolean, assignee_id bigint, original_assignee_id bigint, delegator_id bigint,
        status text, result text, comment text, due_at timestamptz, finished_at timestamptz,
        urged_at timestamptz, on_behalf_of_id bigint, timeout_count integer)
      WHERE bpm_tasks.id = c.id AND bpm_tasks.instance_id = ${instance.id}
      RETURNING bpm_tasks.id
    ), logged AS (
      INSERT INTO bpm_logs (tenant_id, instance_id, node_id, node_name, action, operator_id,
        operator_name, comment, round, details)
      SELECT ${instance.tenant_id}, ${instance.id}, node_id, node_name, action, operator_id,
        operator_name, comment, round, details
      FROM jsonb_to_recordset(${JSON.stringify(planned.logs)}::jsonb) AS l(node_id text,
        node_name text, action text, operator_id bigint, operator_name text, comment text,
        round integer, details jsonb)
      RETURNING id
    ), announced AS (
      INSERT INTO bpm_outbox (tenant_id, kind, event_id, target, payload)
      SELECT ${instance.tenant_id}, n.kind, n.event_id, n.target,
        CASE WHEN n.stamp_finished_at THEN n.payload || jsonb_build_object('finished_at',
          (SELECT to_char(coalesce(s.finished_at, now()) AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM saved s))
        ELSE n.payload END
      FROM jsonb_to_recordset(${JSON.stringify(planned.notices)}::jsonb) AS n(kind text,
        event_id uuid, target text, payload jsonb, stamp_finished_at boolean)
      RETURNING id
    )
    SELECT saved.*, (
      SELECT coalesce(json_agg(json_build_array(c.id, c.node_id, c.assignee_id) ORDER BY c.id),
        '[]')
      FROM created c) AS created
    FROM saved`.execute(db);
  const { created: stored, ...row } = rows[0]!;
  return { row: row as InstanceRow, ids: storedIds(created, stored) };
}

/**
 * Temporary ids mapped to the stored ones. Rows are inserted in the recordset's order, so their
 * identity values ascend in it; each is checked against its task all the same.
 */
function storedIds(created: TaskState[], stored: [number, string, number][]) {
  const ids = new Map<number, number>();
  created.forEach((t, i) => {
    const [id, nodeId, assigneeId] = stored[i] ?? [];
    if (nodeId !== t.nodeId || assigneeId !== t.assigneeId)
      throw new Error(`new task ${i} was not stored in the order given`);
    ids.set(t.id, id!);
  });
  return ids;
}
