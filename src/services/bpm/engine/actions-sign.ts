import { AppError } from '../../../platform/errors.js';
import { dueAtFor, isOpen, logEffect, newTask } from './advance.js';
import {
  checkHolder,
  notAllowed,
  operatorOf,
  pendingApprovalTask,
  sameNodeRound,
  type Step,
} from './action-checks.js';
import { isSignChainTask, reducibleSigners } from './available.js';
import { findNode } from './tree.js';
import type { ApprovalNode, Effect, EngineContext, InstanceState, TaskState } from './types.js';

/**
 * 加签 and 减签 (engine/README.md "Add-sign"). `parallel` add-sign opens pending tasks that join
 * the node's rule. `before` (前加签) and `after` (后加签) open a sign chain: the added users
 * approve one after the other (`seq` 1..n, `addedBySign`), before the caller's task reopens
 * (`before`: it waits meanwhile) or after the caller's approval (`after`: the node completes
 * only once the chain has approved). A rejection in the chain follows the node's `onReject`.
 */

const problem = (message: string, rule: 'type' | 'option' = 'type') =>
  AppError.validation([{ field: 'user_ids', rule, message }], message);

/** The users of an add-sign who may be added: not on the node, not the initiator, active. */
async function addableUsers(
  ctx: EngineContext,
  s: InstanceState,
  task: TaskState,
  node: ApprovalNode,
  userIds: number[],
): Promise<number[]> {
  const mine = sameNodeRound(task);
  const onNode = new Set(
    s.tasks
      .filter((t) => mine(t) && t.status !== 'canceled')
      .flatMap((t) => [t.assigneeId, t.delegatorId ?? t.assigneeId]),
  );
  const fresh = [...new Set(userIds)].filter((id) => !onNode.has(id));
  if (fresh.length === 0) throw problem('no user who is not already on this node');
  if (fresh.includes(s.initiatorId) && node.allowInitiator !== true)
    throw problem('the initiator may not approve their own request');
  const users = await ctx.directory.users(fresh);
  const bad = fresh.filter((id) => !users.some((u) => u.id === id && u.active));
  if (bad.length > 0) throw problem(`not active users: ${bad.join(', ')}`);
  return fresh;
}

export async function addSign({ ctx, s, action, actor }: Step<'add_sign'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  // A vote's ratio is over the people the rule chose; added voters would change it.
  if (node.mode === 'sequential' || node.mode === 'vote')
    throw AppError.conflict(`add-sign is not available in ${node.mode} mode`);
  checkHolder(task, actor, false);
  const position = action.position ?? 'parallel';
  const mine = sameNodeRound(task);
  if (position !== 'parallel' && s.tasks.some((t) => mine(t) && isSignChainTask(t) && isOpen(t)))
    throw AppError.conflict('a before/after add-sign on this node is still open');
  const fresh = await addableUsers(ctx, s, task, node, action.userIds);
  const comment = action.comment ?? null;
  const effects: Effect[] = [];
  if (position === 'before') {
    task.status = 'waiting';
    task.dueAt = null;
  } else if (position === 'after') {
    task.status = 'done';
    task.result = 'approved';
    task.finishedAt = ctx.now;
    effects.push(logEffect(ctx, node.id, 'approve', operatorOf(actor), null, task.round));
  }
  fresh.forEach((assigneeId, i) => {
    const first = position === 'parallel' || i === 0;
    s.tasks.push(
      newTask(ctx, s, {
        nodeId: node.id,
        kind: 'approval',
        assigneeId,
        status: first ? 'pending' : 'waiting',
        seq: position === 'parallel' ? 0 : i + 1,
        addedBySign: true,
        dueAt: first ? dueAtFor(ctx, node) : null,
      }),
    );
  });
  const notified = position === 'parallel' ? fresh : fresh.slice(0, 1);
  effects.push(
    logEffect(ctx, node.id, 'add_sign', actor.userId, comment, task.round, {
      user_ids: fresh,
      position,
    }),
    { type: 'notify', kind: 'todo', userIds: notified, nodeId: node.id },
  );
  return { state: s, effects };
}

/**
 * Keeps the sign chain of `task`'s node and round moving after one of its tasks closed: the
 * next waiting chain task opens; with none left, a caller waiting on a `before` chain reopens.
 * Returns whether a task was opened (false: the chain is over, the node's rule decides).
 */
export function settleSignChain(
  ctx: EngineContext,
  s: InstanceState,
  node: ApprovalNode,
  task: TaskState,
  effects: Effect[],
): boolean {
  const mine = sameNodeRound(task);
  const open = (t: TaskState) => {
    t.status = 'pending';
    t.dueAt = dueAtFor(ctx, node);
    t.timeoutCount = 0;
    effects.push({ type: 'notify', kind: 'todo', userIds: [t.assigneeId], nodeId: node.id });
    return true;
  };
  const chain = s.tasks
    .filter((t) => mine(t) && isSignChainTask(t) && isOpen(t))
    .sort((a, b) => a.seq - b.seq);
  if (chain.length > 0) return chain.some((t) => t.status === 'pending') || open(chain[0]!);
  const caller = s.tasks.find((t) => mine(t) && !isSignChainTask(t) && t.status === 'waiting');
  return caller ? open(caller) : false;
}

/**
 * 减签: a holder of a pending task on the node, or the caller waiting on their `before` chain,
 * cancels the open tasks add-sign gave the named users on the same node and round (parallel or
 * chain). Anyone else named is 40001. The chain then moves on (`settleSignChain`); the node
 * never completes by this action, as the caller's own task is still open.
 */
export function reduceSign({ ctx, s, action, actor }: Step<'reduce_sign'>) {
  const task = s.tasks.find((t) => t.id === action.taskId);
  if (!task) throw AppError.notFound('task');
  if (s.status !== 'running') throw AppError.conflict('the instance is not running');
  const waitingCaller = task.status === 'waiting' && !isSignChainTask(task);
  if (task.status !== 'pending' && !waitingCaller)
    throw AppError.conflict('the task is no longer pending');
  const node = findNode(ctx.tree, task.nodeId);
  if (task.kind !== 'approval' || node?.type !== 'approval')
    throw AppError.conflict('only approval tasks reduce-sign');
  if (actor.system) throw notAllowed('the system does not reduce-sign');
  checkHolder(task, actor, false);
  const signers = reducibleSigners(s, task);
  const wanted = [...new Set(action.userIds)];
  const bad = wanted.filter((id) => !signers.some((t) => t.assigneeId === id));
  if (bad.length > 0)
    throw problem(`not a pending added approver of this node: ${bad.join(', ')}`, 'option');
  for (const t of signers) {
    if (wanted.includes(t.assigneeId)) {
      t.status = 'canceled';
      t.finishedAt = ctx.now;
    }
  }
  const effects: Effect[] = [
    logEffect(ctx, node.id, 'reduce_sign', actor.userId, action.comment ?? null, task.round, {
      user_ids: wanted,
    }),
  ];
  settleSignChain(ctx, s, node, task, effects);
  return { state: s, effects };
}
