import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { findNode } from './tree.js';
import type {
  Action,
  Actor,
  ApprovalNode,
  EngineContext,
  InstanceState,
  TaskState,
} from './types.js';
import { SYSTEM_OPERATOR } from './types.js';

/**
 * The checks every task action shares, in the engine's error order: the task exists (404), the
 * instance and task allow it (40900), the caller may (40301), then inputs (40003, 40001).
 */

/** One action's inputs: the context, the (already cloned) state, the action and its actor. */
export interface Step<T extends Action['type']> {
  ctx: EngineContext;
  s: InstanceState;
  action: Extract<Action, { type: T }>;
  actor: Actor;
}

export const notAllowed = (message: string) =>
  new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, message);

export function operatorOf(actor: Actor): number {
  return actor.system ? SYSTEM_OPERATOR : actor.userId;
}

export function requireComment(comment: string | null | undefined): string {
  if (typeof comment !== 'string' || comment.trim() === '') {
    throw new AppError(ERROR_CODES.COMMENT_REQUIRED);
  }
  return comment;
}

/** Tasks of the same node and round as `task`: the set a node's mode rules look at. */
export const sameNodeRound = (task: TaskState) => (t: TaskState) =>
  t.kind === 'approval' && t.nodeId === task.nodeId && t.round === task.round;

export function pendingApprovalTask(ctx: EngineContext, s: InstanceState, taskId: number) {
  const task = s.tasks.find((t) => t.id === taskId);
  if (!task) throw AppError.notFound('task');
  if (s.status !== 'running') throw AppError.conflict('the instance is not running');
  if (task.status !== 'pending') throw AppError.conflict('the task is no longer pending');
  if (task.kind !== 'approval') throw AppError.conflict('a resubmit task is only resubmitted');
  const node = findNode(ctx.tree, task.nodeId);
  if (node?.type !== 'approval')
    throw new Error(`task ${task.id} is on non-approval node ${task.nodeId}`);
  return { task, node };
}

/** Only the holder of an undelegated task decides it; the system acts on any (timeouts). */
export function checkHolder(task: TaskState, actor: Actor, systemAllowed: boolean): void {
  if (actor.system) {
    if (systemAllowed) return;
    throw notAllowed('the system may only approve or reject');
  }
  if (task.assigneeId !== actor.userId) throw notAllowed('the task is not yours');
  if (task.delegatorId !== null) throw notAllowed('a delegated task can only be resolved');
}

const targetProblem = (message: string) =>
  AppError.validation([{ field: 'to_user_id', rule: 'option', message }], message);

/**
 * A user a task may be passed to: not the caller, not the initiator (no self-approval, unless
 * the node sets `allowInitiator`), not already on the node, active.
 */
export async function checkTarget(
  ctx: EngineContext,
  s: InstanceState,
  task: TaskState,
  node: ApprovalNode,
  actor: Actor,
  to: number,
) {
  if (to === actor.userId) throw targetProblem('cannot pass a task to yourself');
  await checkRecipient(ctx, s, task, node, to);
}

/** A user who may hold `task`: not the initiator (unless allowed), not already on the node, active. */
export async function checkRecipient(
  ctx: EngineContext,
  s: InstanceState,
  task: TaskState,
  node: ApprovalNode,
  to: number,
) {
  const problem = targetProblem;
  if (to === s.initiatorId && node.allowInitiator !== true)
    throw problem('the initiator may not approve their own request');
  const onNode = s.tasks.some(
    (t) =>
      sameNodeRound(task)(t) &&
      t.status !== 'canceled' &&
      (t.assigneeId === to || t.delegatorId === to),
  );
  if (onNode) throw problem(`user ${to} already holds a task on this node`);
  const [user] = await ctx.directory.users([to]);
  if (!user?.active) throw problem(`user ${to} is not an active user`);
}
