import { AppError } from '../../../platform/errors.js';
import { logEffect } from './advance.js';
import {
  checkHolder,
  checkRecipient,
  checkTarget,
  notAllowed,
  operatorOf,
  pendingApprovalTask,
  type Step,
} from './action-checks.js';
import { standInDetails, standInFor } from './stand-ins.js';
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

/**
 * A task of someone out of office passes to their stand-in, found as for a new task (chains,
 * cycles, stand-ins who may not take it: stand-ins.ts), on their behalf, logged as `stand_in`.
 */
export async function handToStandIn({ ctx, s, action, actor }: Step<'hand_to_stand_in'>) {
  const task = s.tasks.find((t) => t.id === action.taskId);
  if (!task) throw AppError.notFound('task');
  const from = task.assigneeId;
  if (!actor.system && !actor.platformAdmin && actor.userId !== from)
    throw notAllowed('only the holder, a platform admin or the system hands a task on');
  if (task.kind !== 'approval' || (task.status !== 'pending' && task.status !== 'waiting'))
    throw AppError.conflict('only an open approval task is handed on');
  const node = findNode(ctx.tree, task.nodeId);
  if (node?.type !== 'approval')
    throw new Error(`task ${task.id} is on non-approval node ${task.nodeId}`);
  const standIn = await standInFor(ctx, from, {
    initiatorId: s.initiatorId,
    allowInitiator: node.allowInitiator === true,
  });
  if (!standIn) throw AppError.conflict('nobody stands in for the holder of this task');
  await checkRecipient(ctx, s, task, node, standIn.standInId);
  const details = { task_id: task.id, ...standInDetails(standIn) };
  const effects: Effect[] = [
    logEffect(ctx, node.id, 'stand_in', operatorOf(actor), null, task.round, details),
  ];
  if (task.delegatorId !== null) {
    effects.push({ type: 'delegation_resolved', taskId: task.id });
    task.delegatorId = null;
  }
  task.onBehalfOfId = from;
  task.assigneeId = standIn.standInId;
  if (task.status === 'pending')
    effects.push({ type: 'notify', kind: 'todo', userIds: [standIn.standInId], nodeId: node.id });
  return { state: s, effects };
}
