import { findNode } from './tree.js';
import type {
  ActionName,
  Actor,
  ApprovalNode,
  FlowNode,
  InstanceState,
  TaskState,
} from './types.js';

/**
 * What an actor may do now, computed from the node, the instance state and the actor. The same
 * predicates guard `applyAction`, so the list never offers an action that would be refused.
 */

/**
 * The order actions are listed in: task decisions first (approve, reject), then the ways of
 * passing a task on (transfer, the two returns, add-sign, delegate, resolve), then the
 * initiator's actions (resubmit, cancel), then the administrator's (terminate).
 */
export const ACTION_ORDER: readonly ActionName[] = [
  'approve',
  'reject',
  'transfer',
  'return_initiator',
  'return_previous',
  'add_sign',
  'reduce_sign',
  'delegate',
  'resolve',
  'withdraw',
  'resubmit',
  'urge',
  'cancel',
  'terminate',
];

const HUMAN_ACTS = new Set(['approved', 'rejected', 'returned']);

/**
 * Running or suspended, and either no person has approved, rejected or returned a task yet, or
 * the request is back with the initiator (a resubmit task of theirs is open): they may drop it
 * instead of resubmitting.
 */
export function cancelAllowed(state: InstanceState): boolean {
  if (state.status !== 'running' && state.status !== 'suspended') return false;
  if (state.tasks.some((t) => t.kind === 'resubmit' && t.status === 'pending')) return true;
  return !state.tasks.some(
    (t) => t.kind === 'approval' && t.status === 'done' && HUMAN_ACTS.has(t.result ?? ''),
  );
}

/**
 * The round the current path began in: a resubmit (closing a resubmit task of round r) clears
 * the path and starts round r + 1; approvals from before it are not history of this path.
 */
export function pathStartRound(state: InstanceState): number {
  const resubmits = state.tasks.filter((t) => t.kind === 'resubmit' && t.status === 'done');
  return Math.max(1, ...resubmits.map((t) => t.round + 1));
}

/**
 * Whether a person passed the node the last time it was entered (since round `since`): its
 * tasks of that round include an `approved` one and no `auto_approved` one (a timeout approval
 * passed it automatically; an auto-passed node has no tasks at all).
 */
function passedByPerson(state: InstanceState, nodeId: string, since: number): boolean {
  const done = state.tasks.filter(
    (t) => t.nodeId === nodeId && t.kind === 'approval' && t.status === 'done' && t.round >= since,
  );
  if (done.length === 0) return false;
  const last = Math.max(...done.map((t) => t.round));
  const latest = done.filter((t) => t.round === last);
  return (
    latest.some((t) => t.result === 'approved') && !latest.some((t) => t.result === 'auto_approved')
  );
}

/**
 * Where return-to-previous from `task` goes: the nearest approval node before the task's node on
 * the path actually taken that a person approved the last time it was entered (not a timeout's
 * `auto_approved`; an auto-passed node has no tasks) since the path began. Null when the node does not allow it or
 * there is no such node.
 */
export function returnPreviousTarget(
  tree: FlowNode,
  state: InstanceState,
  task: TaskState,
): ApprovalNode | null {
  const node = findNode(tree, task.nodeId);
  if (node?.type !== 'approval' || !node.allowBackPrev) return null;
  const at = state.path.lastIndexOf(task.nodeId);
  const since = pathStartRound(state);
  for (let i = at - 1; i >= 0; i--) {
    const candidate = findNode(tree, state.path[i] ?? '');
    if (candidate?.type !== 'approval') continue;
    if (passedByPerson(state, candidate.id, since)) return candidate;
  }
  return null;
}

const HOUR_MS = 3_600_000;

/** Pending approval tasks whose holder was not urged in the hour before `now`. */
export function urgeableTasks(state: InstanceState, now: number): TaskState[] {
  return state.tasks.filter(
    (t) =>
      t.kind === 'approval' &&
      t.status === 'pending' &&
      (t.urgedAt === null || now - t.urgedAt >= HOUR_MS),
  );
}

/**
 * Whether `task`'s approval may be withdrawn: it is the instance's latest decision (no task
 * finished after it), a person's `approved` on a node it completed (the cursor moved on to
 * another approval node), and nobody has touched the next node's tasks (none done, passed on or
 * added). An approval that ended the instance cannot be withdrawn.
 */
export function withdrawAllowed(tree: FlowNode, state: InstanceState, task: TaskState): boolean {
  if (state.status !== 'running' || task.kind !== 'approval') return false;
  if (task.status !== 'done' || task.result !== 'approved' || task.finishedAt === null)
    return false;
  if (state.currentNodeId === null || state.currentNodeId === task.nodeId) return false;
  if (findNode(tree, state.currentNodeId)?.type !== 'approval') return false;
  // Nothing decided since: no task finished later, none done on a node entered after its node.
  const after = new Set(state.path.slice(state.path.lastIndexOf(task.nodeId) + 1));
  const later = state.tasks.some(
    (t) =>
      t.id !== task.id &&
      t.status === 'done' &&
      ((t.finishedAt ?? 0) > task.finishedAt! || (after.has(t.nodeId) && t.round >= task.round)),
  );
  if (later) return false;
  // Tasks canceled before this approval (an earlier withdrawal's) are history, not the next node.
  const next = state.tasks.filter(
    (t) =>
      t.nodeId === state.currentNodeId &&
      t.round === state.round &&
      !(t.status === 'canceled' && (t.finishedAt ?? 0) <= task.finishedAt!),
  );
  return (
    next.length > 0 &&
    next.every(
      (t) =>
        (t.status === 'pending' || t.status === 'waiting') &&
        t.originalAssigneeId === null &&
        t.delegatorId === null &&
        !t.addedBySign,
    )
  );
}

/** A task of a before/after add-sign chain (parallel add-sign tasks have `seq` 0). */
export const isSignChainTask = (t: TaskState): boolean => t.addedBySign && t.seq > 0;

/**
 * Open (pending, or waiting in a sign chain) tasks add-sign opened for others on `task`'s node
 * and round, not delegated: what reduce-sign may cancel.
 */
export function reducibleSigners(state: InstanceState, task: TaskState): TaskState[] {
  return state.tasks.filter(
    (t) =>
      t.id !== task.id &&
      t.kind === 'approval' &&
      t.nodeId === task.nodeId &&
      t.round === task.round &&
      t.addedBySign &&
      (t.status === 'pending' || (t.status === 'waiting' && isSignChainTask(t))) &&
      t.delegatorId === null,
  );
}

function taskActions(
  tree: FlowNode,
  state: InstanceState,
  task: TaskState,
  actor: Actor,
): ActionName[] {
  if (task.assigneeId !== actor.userId || actor.system) return [];
  if (task.status === 'done') return withdrawAllowed(tree, state, task) ? ['withdraw'] : [];
  if (state.status !== 'running') return [];
  // The caller of a before add-sign waits for the chain; they may only reduce it.
  if (task.status === 'waiting' && task.kind === 'approval' && !isSignChainTask(task))
    return reducibleSigners(state, task).length > 0 ? ['reduce_sign'] : [];
  if (task.status !== 'pending') return [];
  if (task.kind === 'resubmit') return ['resubmit'];
  if (task.delegatorId !== null) return ['resolve'];
  const node = findNode(tree, task.nodeId);
  if (node?.type !== 'approval') return [];
  const out: ActionName[] = ['approve', 'reject', 'transfer', 'return_initiator', 'delegate'];
  if (returnPreviousTarget(tree, state, task)) out.push('return_previous');
  if (node.mode !== 'sequential' && node.mode !== 'vote') out.push('add_sign');
  if (reducibleSigners(state, task).length > 0) out.push('reduce_sign');
  return out;
}

/**
 * The actions `actor` may take now. With `taskId`, the task's own actions are included (when the
 * actor holds it, pending); the instance-level ones (resubmit for a held resubmit task, cancel,
 * terminate) are always considered. Listed in `ACTION_ORDER`.
 */
export function availableActions(
  tree: FlowNode,
  state: InstanceState,
  actor: Actor,
  taskId?: number,
): ActionName[] {
  const found = new Set<ActionName>();
  const task = taskId === undefined ? undefined : state.tasks.find((t) => t.id === taskId);
  if (task) for (const a of taskActions(tree, state, task, actor)) found.add(a);

  const isInitiator = !actor.system && actor.userId === state.initiatorId;
  const holdsResubmit = state.tasks.some(
    (t) => t.kind === 'resubmit' && t.status === 'pending' && t.assigneeId === actor.userId,
  );
  if (isInitiator && holdsResubmit && state.status === 'running' && task?.kind !== 'approval') {
    found.add('resubmit');
  }
  if (isInitiator && cancelAllowed(state)) found.add('cancel');
  // Urge needs the clock; listed whenever an approver is waiting (the hour is checked on urge).
  if (
    isInitiator &&
    state.status === 'running' &&
    state.tasks.some((t) => t.kind === 'approval' && t.status === 'pending')
  ) {
    found.add('urge');
  }
  if (actor.platformAdmin && (state.status === 'running' || state.status === 'suspended')) {
    found.add('terminate');
  }
  return ACTION_ORDER.filter((a) => found.has(a));
}
