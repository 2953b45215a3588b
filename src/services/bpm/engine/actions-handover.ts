import { AppError } from '../../../platform/http/errors.js';
import { logEffect } from './advance.js';
import {
  checkHolder,
  checkRecipient,
  checkTarget,
  notAllowed,
  pendingApprovalTask,
  type Step,
} from './action-checks.js';
import { findNode } from './tree.js';
import type { Effect } from './types.js';

/**
 * Passing a task on (BPM.md "Actions"): transfer (for good), delegate and resolve (lent and
 * handed back), and a platform admin's reassign. The log entry names whom the task went
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
        task_id: task.id,
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
        task_id: task.id,
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

/**
 * A platform admin moves an open (pending or waiting) approval task to another active user: the
 * way out for a leaver's tasks, which nobody else may act on. The first holder stays in
 * `originalAssigneeId`; a delegation in progress ends (the new holder decides).
 */
export async function reassign({ ctx, s, action, actor }: Step<'reassign'>) {
  const task = s.tasks.find((t) => t.id === action.taskId);
  if (!task) throw AppError.notFound('task');
  if (!actor.platformAdmin || actor.system) throw notAllowed('only a platform admin reassigns');
  if (task.kind !== 'approval' || (task.status !== 'pending' && task.status !== 'waiting')) {
    throw AppError.conflict('only an open approval task is reassigned');
  }
  const node = findNode(ctx.tree, task.nodeId);
  if (node?.type !== 'approval')
    throw new Error(`task ${task.id} is on non-approval node ${task.nodeId}`);
  const from = task.assigneeId;
  if (from !== action.fromUserId) throw AppError.conflict('the task changed hands meanwhile');
  if (action.toUserId === from) {
    throw AppError.validation(
      [{ field: 'to_user_id', rule: 'option', message: 'the task is already theirs' }],
      'the task is already theirs',
    );
  }
  await checkRecipient(ctx, s, task, node, action.toUserId);
  const effects: Effect[] = [
    logEffect(ctx, node.id, 'reassign', actor.userId, action.comment ?? null, task.round, {
      task_id: task.id,
      from_user_id: from,
      to_user_id: action.toUserId,
    }),
  ];
  if (task.delegatorId !== null) {
    effects.push({ type: 'delegation_resolved', taskId: task.id });
    task.delegatorId = null;
  }
  task.originalAssigneeId ??= from;
  task.assigneeId = action.toUserId;
  if (task.status === 'pending') {
    effects.push({ type: 'notify', kind: 'todo', userIds: [action.toUserId], nodeId: node.id });
  }
  return { state: s, effects };
}
