import { AppError } from '../../../platform/http/errors.js';
import { logEffect } from './advance.js';
import {
  checkHolder,
  checkTarget,
  notAllowed,
  pendingApprovalTask,
  type Step,
} from './action-checks.js';
import type { Effect } from './types.js';

/**
 * Passing a task on (BPM.md "Actions"): transfer (for good), delegate and resolve (lent and
 * handed back). The log entry names whom the task went
 * to (`details`). Add-sign and reduce-sign are in `actions-sign.ts`.
 */

export async function transfer({ ctx, s, action, actor }: Step<'transfer'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  checkHolder(task, actor, false);
  await checkTarget(ctx, s, task, node, actor, action.toUserId);
  task.originalAssigneeId ??= task.assigneeId;
  task.assigneeId = action.toUserId;
  return {
    state: s,
    effects: [
      logEffect(ctx, node.id, 'transfer', actor.userId, action.comment ?? null, task.round, {
        to_user_id: action.toUserId,
      }),
      { type: 'notify', kind: 'todo', userIds: [action.toUserId], nodeId: node.id },
    ] satisfies Effect[],
  };
}

export async function delegate({ ctx, s, action, actor }: Step<'delegate'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  checkHolder(task, actor, false);
  await checkTarget(ctx, s, task, node, actor, action.toUserId);
  task.delegatorId = actor.userId;
  task.assigneeId = action.toUserId;
  return {
    state: s,
    effects: [
      logEffect(ctx, node.id, 'delegate', actor.userId, action.comment ?? null, task.round, {
        to_user_id: action.toUserId,
      }),
      { type: 'delegation', taskId: task.id, fromUserId: actor.userId, toUserId: action.toUserId },
      { type: 'notify', kind: 'todo', userIds: [action.toUserId], nodeId: node.id },
    ] satisfies Effect[],
  };
}

export function resolve({ ctx, s, action, actor }: Step<'resolve'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  if (task.delegatorId === null) throw AppError.conflict('the task is not delegated');
  if (actor.system || task.assigneeId !== actor.userId)
    throw notAllowed('only the delegatee resolves');
  const delegator = task.delegatorId;
  task.assigneeId = delegator;
  task.delegatorId = null;
  return {
    state: s,
    effects: [
      logEffect(ctx, node.id, 'resolve', actor.userId, action.comment ?? null, task.round),
      { type: 'delegation_resolved', taskId: task.id },
      { type: 'notify', kind: 'todo', userIds: [delegator], nodeId: node.id },
    ] satisfies Effect[],
  };
}
