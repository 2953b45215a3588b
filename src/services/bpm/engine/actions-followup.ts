import { AppError } from '../../../platform/errors.js';
import { dueAtFor, isOpen, logEffect } from './advance.js';
import { notAllowed, sameNodeRound, type Step } from './action-checks.js';
import { urgeableTasks, withdrawAllowed } from './available.js';
import { findNode } from './tree.js';
import type { Effect, EngineResult } from './types.js';

/**
 * Follow-ups on a running instance beyond BPM.md's table (engine/README.md): the initiator's
 * urge (催办) and an approver's withdrawal of their decision (撤回).
 */

/** The initiator reminds the holders of the pending tasks not urged in the last hour. */
export function urge({ ctx, s, action, actor }: Step<'urge'>): EngineResult {
  if (actor.system || actor.userId !== s.initiatorId) throw notAllowed('only the initiator urges');
  if (s.status !== 'running') throw AppError.conflict('the instance is not running');
  const pending = s.tasks.filter((t) => t.kind === 'approval' && t.status === 'pending');
  if (pending.length === 0) throw AppError.conflict('no approver is waiting');
  const due = urgeableTasks(s, ctx.now);
  if (due.length === 0) throw AppError.conflict('every approver was urged less than an hour ago');
  for (const task of due) task.urgedAt = ctx.now;
  const userIds = [...new Set(due.map((t) => t.assigneeId))];
  const nodeId = s.currentNodeId;
  const effects: Effect[] = [
    logEffect(ctx, nodeId, 'urge', actor.userId, action.comment ?? null, s.round, {
      user_ids: userIds,
    }),
    { type: 'notify', kind: 'urge', userIds, nodeId },
  ];
  return { state: s, effects };
}

/**
 * The actor of the last approval takes it back while the next node has not been acted on: the
 * open tasks after it are canceled, their task is pending again with the node's timeout re-armed
 * from now (the old deadline may have passed while it was approved), and so are the tasks of an
 * `or` node's co-holders that the approval closed; the form edits it made are reverted; the
 * cursor and path go back to its node. CC records written on the way stay (the copies were sent).
 */
export function withdraw({ ctx, s, action, actor }: Step<'withdraw'>): EngineResult {
  const task = s.tasks.find((t) => t.id === action.taskId);
  if (!task) throw AppError.notFound('task');
  if (actor.system || task.assigneeId !== actor.userId)
    throw notAllowed('only the approver withdraws their decision');
  if (!withdrawAllowed(ctx.tree, s, task)) {
    throw AppError.conflict('only the last approval, before the next node acts, is withdrawn');
  }
  const node = findNode(ctx.tree, task.nodeId)!;
  if (node.type !== 'approval')
    throw new Error(`task ${task.id} is on non-approval node ${node.id}`);
  const decidedAt = task.finishedAt;
  for (const t of s.tasks) {
    if (isOpen(t)) {
      t.status = 'canceled';
      t.finishedAt = ctx.now;
    }
  }
  // An `or` approval closed its co-holders' tasks at the moment it was given: they reopen.
  const coHolders =
    node.mode === 'or'
      ? s.tasks.filter(
          (t) =>
            t !== task &&
            sameNodeRound(task)(t) &&
            t.status === 'canceled' &&
            t.result === null &&
            t.finishedAt === decidedAt,
        )
      : [];
  for (const t of [task, ...coHolders]) {
    t.status = 'pending';
    t.finishedAt = null;
    t.dueAt = dueAtFor(ctx, node);
    t.timeoutCount = 0;
  }
  task.result = null;
  task.comment = null;
  s.path = s.path.slice(0, s.path.lastIndexOf(node.id) + 1);
  s.currentNodeId = node.id;
  const effects: Effect[] = [
    logEffect(ctx, node.id, 'withdraw', actor.userId, action.comment ?? null, task.round),
  ];
  // The form goes back to what it was before the approval's edits.
  const reverted = (action.edits ?? []).map((c) => ({
    field: c.field,
    before: c.after,
    after: c.before,
  }));
  for (const change of reverted) {
    if (change.after === null) delete s.form[change.field];
    else s.form[change.field] = change.after;
  }
  if (reverted.length > 0) {
    effects.push(
      logEffect(ctx, node.id, 'edit', actor.userId, null, task.round, { changes: reverted }),
    );
  }
  if (coHolders.length > 0) {
    const userIds = coHolders.map((t) => t.assigneeId);
    effects.push({ type: 'notify', kind: 'todo', userIds, nodeId: node.id });
  }
  return { state: s, effects };
}
