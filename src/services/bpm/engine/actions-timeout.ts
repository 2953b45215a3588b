import { AppError } from '../../../platform/errors.js';
import { dueIn, endInstance, isOpen, logEffect } from './advance.js';
import { notAllowed, sameNodeRound, type Step } from './action-checks.js';
import { standInFor } from './stand-ins.js';
import { findNode } from './tree.js';
import type {
  Action,
  ApprovalNode,
  Effect,
  EngineContext,
  EngineResult,
  InstanceState,
  TaskState,
} from './types.js';
import { SYSTEM_OPERATOR } from './types.js';

/**
 * A task's deadline passed (BPM.md "Timeouts"); the system acts. An approval step's `timeout`
 * reminds (again every `repeatEveryHours`, up to `repeatCount`), escalates to the holder's
 * department leader (one level per period; at the top of the tree `finalAction`), or approves or
 * rejects through the same code as a person (`act`). A resubmit task's `resubmitTimeout` reminds
 * the initiator or cancels the request.
 */
export async function timeout(
  { ctx, s, action, actor }: Step<'timeout'>,
  act: (action: Action) => Promise<EngineResult>,
): Promise<EngineResult> {
  if (!actor.system) throw notAllowed('only the system acts on a deadline');
  const task = s.tasks.find((t) => t.id === action.taskId);
  if (!task) throw AppError.notFound('task');
  if (s.status !== 'running' || task.status !== 'pending')
    throw AppError.conflict('the task is not pending');
  if (task.kind === 'resubmit') return resubmitDeadline(ctx, s, task);
  const node = findNode(ctx.tree, task.nodeId);
  if (node?.type !== 'approval' || !node.timeout) throw AppError.conflict('no deadline here');
  switch (node.timeout.action) {
    case 'auto_approve':
      return act({ type: 'approve', taskId: task.id, comment: 'timeout' });
    case 'auto_reject':
      return act({ type: 'reject', taskId: task.id, comment: 'timeout' });
    case 'remind':
      return remind(ctx, s, node, task);
    case 'escalate':
      return escalate(ctx, s, node, task, act);
  }
}

function remind(
  ctx: EngineContext,
  s: InstanceState,
  node: ApprovalNode,
  task: TaskState,
): EngineResult {
  const { repeatCount = 1, repeatEveryHours } = node.timeout!;
  task.timeoutCount += 1;
  if (task.timeoutCount < repeatCount && repeatEveryHours)
    task.dueAt = dueIn(ctx, repeatEveryHours);
  const details = { count: task.timeoutCount };
  const effects: Effect[] = [
    logEffect(ctx, node.id, 'remind', SYSTEM_OPERATOR, 'timeout', task.round, details),
    { type: 'notify', kind: 'timeout', userIds: [task.assigneeId], nodeId: node.id },
  ];
  return { state: s, effects };
}

async function escalate(
  ctx: EngineContext,
  s: InstanceState,
  node: ApprovalNode,
  task: TaskState,
  act: (action: Action) => Promise<EngineResult>,
): Promise<EngineResult> {
  const { hours, repeatEveryHours, finalAction = 'stay' } = node.timeout!;
  const from = task.assigneeId;
  const to = await escalationTarget(ctx, s, node, task);
  if (!to) {
    const comment = 'timeout: nobody above to escalate to';
    if (finalAction === 'auto_approve') return act({ type: 'approve', taskId: task.id, comment });
    if (finalAction === 'auto_reject') return act({ type: 'reject', taskId: task.id, comment });
    const details = { from_user_id: from, to_user_id: null, level: task.timeoutCount };
    const effects: Effect[] = [
      logEffect(ctx, node.id, 'escalate', SYSTEM_OPERATOR, 'top of the tree', task.round, details),
      { type: 'notify', kind: 'timeout', userIds: [from], nodeId: node.id },
    ];
    return { state: s, effects };
  }
  const effects: Effect[] = [];
  // Escalation takes the task from whoever held it, a delegatee too (the delegation ends).
  if (task.delegatorId !== null) {
    effects.push({ type: 'delegation_resolved', taskId: task.id });
    task.delegatorId = null;
  }
  task.originalAssigneeId ??= from;
  task.assigneeId = to.assigneeId;
  task.onBehalfOfId = to.onBehalfOfId;
  task.timeoutCount += 1;
  task.dueAt = dueIn(ctx, repeatEveryHours ?? hours);
  const details = {
    from_user_id: from,
    to_user_id: to.assigneeId,
    level: task.timeoutCount,
    ...(to.onBehalfOfId !== null ? { on_behalf_of_id: to.onBehalfOfId } : {}),
  };
  effects.push(
    logEffect(ctx, node.id, 'escalate', SYSTEM_OPERATOR, 'timeout', task.round, details),
    { type: 'notify', kind: 'todo', userIds: [to.assigneeId], nodeId: node.id },
  );
  return { state: s, effects };
}

/** Departments walked at most, so a cycle in bad data cannot loop. */
const MAX_LEVELS = 64;

/**
 * The leader of the holder's department, or of the next one up while that leader cannot take
 * the task (the holder themself, nobody, inactive, the initiator where the step forbids it, or
 * someone already holding a task of this step); their stand-in when they are away.
 */
async function escalationTarget(
  ctx: EngineContext,
  s: InstanceState,
  node: ApprovalNode,
  task: TaskState,
): Promise<{ assigneeId: number; onBehalfOfId: number | null } | null> {
  const [holder] = await ctx.directory.users([task.assigneeId]);
  const holding = new Set(
    s.tasks.filter((t) => sameNodeRound(task)(t) && isOpen(t)).map((t) => t.assigneeId),
  );
  const allowInitiator = node.allowInitiator === true;
  let dept = holder?.deptId ?? null;
  for (let level = 0; dept !== null && level < MAX_LEVELS; level++) {
    const leader = await ctx.directory.leaderOf(dept);
    if (leader === undefined) return null;
    const usable =
      leader !== null &&
      !holding.has(leader) &&
      (leader !== s.initiatorId || allowInitiator) &&
      (await ctx.directory.users([leader]))[0]?.active === true;
    if (usable) {
      const standIn = await standInFor(ctx, leader, { initiatorId: s.initiatorId, allowInitiator });
      if (!standIn) return { assigneeId: leader, onBehalfOfId: null };
      if (!holding.has(standIn.standInId))
        return { assigneeId: standIn.standInId, onBehalfOfId: leader };
    }
    dept = (await ctx.directory.parentOf(dept)) ?? null;
  }
  return null;
}

function resubmitDeadline(ctx: EngineContext, s: InstanceState, task: TaskState): EngineResult {
  const deadline = ctx.tree.type === 'start' ? ctx.tree.resubmitTimeout : undefined;
  if (!deadline) throw AppError.conflict('no deadline here');
  if (deadline.action === 'cancel') {
    const effects = [logEffect(ctx, ctx.tree.id, 'cancel', SYSTEM_OPERATOR, 'timeout', s.round)];
    endInstance(ctx, s, 'canceled', effects);
    return { state: s, effects };
  }
  task.timeoutCount += 1;
  const details = { count: task.timeoutCount };
  const effects: Effect[] = [
    logEffect(ctx, ctx.tree.id, 'remind', SYSTEM_OPERATOR, 'timeout', task.round, details),
    { type: 'notify', kind: 'timeout', userIds: [s.initiatorId], nodeId: ctx.tree.id },
  ];
  return { state: s, effects };
}
