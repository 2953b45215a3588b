import { resolveAssignees, resolveNodeAssignees, type NodeResolution } from './assignees.js';
import { chooseBranch, type ConditionInput } from './condition.js';
import { findNode, firstNodeOfBranch, nextNodeAfter } from './tree.js';
import type {
  ApprovalNode,
  Effect,
  EngineContext,
  EngineResult,
  FlowNode,
  FormData,
  InstanceState,
  InstanceStatus,
  LogAction,
  SuspendReason,
  TaskState,
} from './types.js';
import { SYSTEM_OPERATOR } from './types.js';
import { preflight } from './preflight.js';
import { repeatedApprovers } from './repeats.js';
import { standInDetails, withStandIns, type Assignment } from './stand-ins.js';

/**
 * The cursor: starting an instance and moving it forward until it waits for people (open
 * tasks), is suspended, or reaches the end of the tree. Also the small state helpers the actions
 * share. Every function here returns a new state; the input is never mutated.
 */

const HOUR_MS = 3_600_000;

export interface StartInit {
  form: FormData;
  initiatorId: number;
  initiatorDeptId: number | null;
  initiatorRoleIds: number[];
  /** `selected_assignees` of the start request, by node id. */
  selectedAssignees: Record<string, number[]>;
}

export const cloneState = (state: InstanceState): InstanceState => structuredClone(state);

export const isOpen = (t: TaskState): boolean => t.status === 'pending' || t.status === 'waiting';

export function conditionInput(state: InstanceState): ConditionInput {
  return {
    form: state.form,
    initiator: { dept_id: state.initiatorDeptId, role_ids: state.initiatorRoleIds },
  };
}

export function logEffect(
  ctx: EngineContext,
  nodeId: string | null,
  action: LogAction,
  operatorId: number,
  comment: string | null,
  round: number,
  details: Record<string, unknown> | null = null,
): Effect {
  const nodeName = nodeId === null ? null : (findNode(ctx.tree, nodeId)?.name ?? null);
  return { type: 'log', entry: { nodeId, nodeName, action, operatorId, comment, round, details } };
}

export function dueAtFor(ctx: EngineContext, node: ApprovalNode): number | null {
  return node.timeout ? ctx.now + Math.round(node.timeout.hours * HOUR_MS) : null;
}

/** `hours` from now, as a due time. */
export const dueIn = (ctx: EngineContext, hours: number): number =>
  ctx.now + Math.round(hours * HOUR_MS);

/** A new task in the instance's current round; the caller pushes it. */
export function newTask(
  ctx: EngineContext,
  state: InstanceState,
  fields: Pick<TaskState, 'nodeId' | 'kind' | 'assigneeId' | 'status'> & Partial<TaskState>,
): TaskState {
  return {
    id: ctx.newTaskId(),
    originalAssigneeId: null,
    delegatorId: null,
    result: null,
    round: state.round,
    seq: 0,
    comment: null,
    createdAt: ctx.now,
    dueAt: null,
    finishedAt: null,
    addedBySign: false,
    urgedAt: null,
    onBehalfOfId: null,
    timeoutCount: 0,
    ...fields,
  };
}

/** Cancels the open (pending or waiting) tasks that `which` selects (all by default). */
export function cancelOpenTasks(
  ctx: EngineContext,
  state: InstanceState,
  which: (t: TaskState) => boolean = () => true,
): void {
  for (const t of state.tasks) {
    if (isOpen(t) && which(t)) {
      t.status = 'canceled';
      t.finishedAt = ctx.now;
    }
  }
}

/** Terminal state: every open task is canceled; persistence writes the outbox row and notice. */
export function endInstance(
  ctx: EngineContext,
  state: InstanceState,
  status: InstanceStatus,
  effects: Effect[],
): void {
  state.status = status;
  state.currentNodeId = null;
  state.suspendReason = null;
  cancelOpenTasks(ctx, state);
  effects.push({ type: 'terminal', status });
  effects.push({ type: 'notify', kind: 'terminal', userIds: [state.initiatorId], nodeId: null });
}

function suspend(
  ctx: EngineContext,
  state: InstanceState,
  reason: SuspendReason,
  effects: Effect[],
): void {
  state.status = 'suspended';
  state.currentNodeId = null;
  state.suspendReason = reason;
  effects.push(
    logEffect(ctx, reason.node_id, 'suspend', SYSTEM_OPERATOR, reason.detail, state.round),
  );
}

/**
 * Opens a node's tasks: one pending task per assignee for `and`/`or`; for `sequential` the
 * first pending and the rest waiting in order. Only pending tasks get a due time.
 */
export function openNodeTasks(
  ctx: EngineContext,
  state: InstanceState,
  node: ApprovalNode,
  assignments: Assignment[],
  effects: Effect[],
): void {
  const sequential = node.mode === 'sequential';
  const userIds = assignments.map((a) => a.assigneeId);
  assignments.forEach(({ assigneeId, onBehalfOfId }, i) => {
    const pending = !sequential || i === 0;
    state.tasks.push(
      newTask(ctx, state, {
        nodeId: node.id,
        kind: 'approval',
        assigneeId,
        status: pending ? 'pending' : 'waiting',
        seq: sequential ? i : 0,
        dueAt: pending ? dueAtFor(ctx, node) : null,
        onBehalfOfId,
      }),
    );
  });
  const notified = sequential ? userIds.slice(0, 1) : userIds;
  effects.push({ type: 'notify', kind: 'todo', userIds: notified, nodeId: node.id });
  state.status = 'running';
  state.suspendReason = null;
  state.currentNodeId = node.id;
}

/**
 * Opens the step's tasks, the system approving for those who approved earlier on the path
 * (`autoApproveRepeats`, repeats.ts). Answers true when the step passed on those approvals alone:
 * `or` with one of them, `vote` once they reach the ratio, `and`/`sequential` with everyone.
 */
async function approveRepeats(
  ctx: EngineContext,
  s: InstanceState,
  node: ApprovalNode,
  userIds: number[],
  effects: Effect[],
): Promise<boolean> {
  const repeated = repeatedApprovers(ctx, s, node, userIds);
  const approvedNow = node.mode === 'or' ? repeated.slice(0, 1) : repeated;
  for (const assigneeId of approvedNow) {
    s.tasks.push(
      newTask(ctx, s, {
        nodeId: node.id,
        kind: 'approval',
        assigneeId,
        status: 'done',
        result: 'auto_approved',
        finishedAt: ctx.now,
      }),
    );
    const why = `user ${assigneeId} approved earlier on this path`;
    effects.push(logEffect(ctx, node.id, 'auto_approve', SYSTEM_OPERATOR, why, s.round));
  }
  const rest = userIds.filter((id) => !repeated.includes(id));
  const passed =
    node.mode === 'or'
      ? approvedNow.length > 0
      : node.mode === 'vote'
        ? reachesRatio(node, repeated.length, userIds.length)
        : rest.length === 0;
  if (passed) return true;
  // Whoever is out of office: their task opens for their stand-in (stand-ins.ts).
  const { assignments, standIns } = await withStandIns(ctx, rest, {
    initiatorId: s.initiatorId,
    allowInitiator: node.allowInitiator === true,
  });
  for (const standIn of standIns) {
    const details = standInDetails(standIn);
    effects.push(logEffect(ctx, node.id, 'stand_in', SYSTEM_OPERATOR, null, s.round, details));
  }
  openNodeTasks(ctx, s, node, assignments, effects);
  return false;
}

/**
 * Whether `approvals` of `voters` reach a `vote` node's `passRatio`. Compared as counts, so a
 * ratio like 2/3 is not lost to rounding.
 */
export function reachesRatio(node: ApprovalNode, approvals: number, voters: number): boolean {
  return approvals >= (node.passRatio ?? 1) * voters - 1e-9;
}

/** The suspend reason's detail when a node has nobody to act. */
export function emptyAssigneeDetail(r: NodeResolution): string {
  if (r.strategy === 'fallback_users') return 'no assignee, and no usable fallback user';
  if (r.resolution.note) return `no assignee: ${r.resolution.note}`;
  const dropped = r.resolution.dropped.map((d) =>
    d.reason === 'initiator' ? `user ${d.userId} is the initiator` : `user ${d.userId} ${d.reason}`,
  );
  return dropped.length > 0 ? `no active assignee (${dropped.join(', ')})` : 'no assignee';
}

/**
 * Enters `from` and walks on until people must act (tasks opened), the instance is suspended,
 * or the tree ends (approved). Each entered node id is appended to `path`.
 */
export async function advance(
  ctx: EngineContext,
  state: InstanceState,
  from: FlowNode | null,
): Promise<EngineResult> {
  const s = cloneState(state);
  const effects: Effect[] = [];
  s.status = 'running';
  s.suspendReason = null;
  s.currentNodeId = null;
  let node = from;
  while (node) {
    s.path.push(node.id);
    if (node.type === 'start') {
      node = nextNodeAfter(ctx.tree, node.id);
    } else if (node.type === 'cc') {
      const { userIds } = await resolveAssignees(node.assignee, s, node.id, ctx.directory);
      if (userIds.length > 0) {
        effects.push({ type: 'cc', nodeId: node.id, userIds, round: s.round });
        effects.push({ type: 'notify', kind: 'cc', userIds, nodeId: node.id });
      }
      const comment = userIds.length > 0 ? null : 'no recipients';
      effects.push(logEffect(ctx, node.id, 'cc', SYSTEM_OPERATOR, comment, s.round));
      node = nextNodeAfter(ctx.tree, node.id);
    } else if (node.type === 'branch') {
      const choice = chooseBranch(node, conditionInput(s));
      if (!choice.ok) {
        suspend(
          ctx,
          s,
          { code: 'condition_failed', node_id: node.id, detail: choice.error },
          effects,
        );
        return { state: s, effects };
      }
      effects.push(logEffect(ctx, node.id, 'branch', SYSTEM_OPERATOR, choice.branch.name, s.round));
      node = firstNodeOfBranch(ctx.tree, node, choice.branch.id);
    } else {
      const r = await resolveNodeAssignees(node, s, ctx.directory);
      if (r.outcome === 'tasks') {
        if (!(await approveRepeats(ctx, s, node, r.userIds, effects))) return { state: s, effects };
        node = nextNodeAfter(ctx.tree, node.id);
        continue;
      }
      if (r.outcome === 'suspend') {
        const detail = emptyAssigneeDetail(r);
        suspend(ctx, s, { code: 'empty_assignee', node_id: node.id, detail }, effects);
        return { state: s, effects };
      }
      // Why, when it was not the empty-assignee strategy (a leader rule's `skip`).
      const why = r.strategy === null ? r.resolution.note : null;
      effects.push(logEffect(ctx, node.id, 'auto_pass', SYSTEM_OPERATOR, why, s.round));
      node = nextNodeAfter(ctx.tree, node.id);
    }
  }
  effects.push(logEffect(ctx, null, 'finish', SYSTEM_OPERATOR, null, s.round));
  endInstance(ctx, s, 'approved', effects);
  return { state: s, effects };
}

/** A new instance in round 1: logs `start` (by the initiator) and advances from the start node. */
/** Starts an instance, after the pre-flight refused nothing the submitter could correct. */
export async function startInstance(ctx: EngineContext, init: StartInit): Promise<EngineResult> {
  const refused = await preflight(ctx, init);
  if (refused) throw refused;
  const state: InstanceState = {
    status: 'running',
    round: 1,
    form: { ...init.form },
    initiatorId: init.initiatorId,
    initiatorDeptId: init.initiatorDeptId,
    initiatorRoleIds: [...init.initiatorRoleIds],
    selectedAssignees: structuredClone(init.selectedAssignees),
    path: [],
    currentNodeId: null,
    suspendReason: null,
    tasks: [],
  };
  const startLog = logEffect(ctx, ctx.tree.id, 'start', init.initiatorId, null, state.round);
  const result = await advance(ctx, state, ctx.tree);
  return { state: result.state, effects: [startLog, ...result.effects] };
}
