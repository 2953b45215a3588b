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
  'delegate',
  'resolve',
  'resubmit',
  'cancel',
  'terminate',
];

const HUMAN_ACTS = new Set(['approved', 'rejected', 'returned']);

/** Running or suspended, and no person has approved, rejected or returned a task yet. */
export function cancelAllowed(state: InstanceState): boolean {
  if (state.status !== 'running' && state.status !== 'suspended') return false;
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
 * Where return-to-previous from `task` goes: the nearest approval node before the task's node on
 * the path actually taken that a person approved (result `approved`, not `auto_approved`; an
 * auto-passed node has no tasks) since the path began. Null when the node does not allow it or
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
    const approved = state.tasks.some(
      (t) =>
        t.nodeId === candidate.id &&
        t.kind === 'approval' &&
        t.status === 'done' &&
        t.result === 'approved' &&
        t.round >= since,
    );
    if (approved) return candidate;
  }
  return null;
}

function taskActions(
  tree: FlowNode,
  state: InstanceState,
  task: TaskState,
  actor: Actor,
): ActionName[] {
  if (state.status !== 'running' || task.status !== 'pending') return [];
  if (task.assigneeId !== actor.userId || actor.system) return [];
  if (task.kind === 'resubmit') return ['resubmit'];
  if (task.delegatorId !== null) return ['resolve'];
  const node = findNode(tree, task.nodeId);
  if (node?.type !== 'approval') return [];
  const out: ActionName[] = ['approve', 'reject', 'transfer', 'return_initiator', 'delegate'];
  if (returnPreviousTarget(tree, state, task)) out.push('return_previous');
  if (node.mode !== 'sequential') out.push('add_sign');
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
  if (actor.platformAdmin && (state.status === 'running' || state.status === 'suspended')) {
    found.add('terminate');
  }
  return ACTION_ORDER.filter((a) => found.has(a));
}
