import { AppError } from '../../../platform/errors.js';
import {
  advance,
  cancelOpenTasks,
  cloneState,
  dueAtFor,
  dueIn,
  endInstance,
  isOpen,
  logEffect,
  newTask,
  reachesRatio,
} from './advance.js';
import {
  checkHolder,
  notAllowed,
  operatorOf,
  pendingApprovalTask,
  requireComment,
  sameNodeRound,
  type Step,
} from './action-checks.js';
import { urge, withdraw } from './actions-followup.js';
import { delegate, handToStandIn, reassign, resolve, transfer } from './actions-handover.js';
import { resume } from './actions-resume.js';
import { addSign, reduceSign, settleSignChain } from './actions-sign.js';
import { cancelAllowed, isSignChainTask, returnPreviousTarget } from './available.js';
import { timeout } from './actions-timeout.js';
import { checkDirectoryFields } from './directory-fields.js';
import { checkFileFields } from './file-fields.js';
import { applyEdits } from './edits.js';
import { nextNodeAfter } from './tree.js';
import type {
  Action,
  Actor,
  ApprovalNode,
  Effect,
  EngineContext,
  EngineResult,
  FlowNode,
  InstanceState,
  TaskState,
} from './types.js';
import { preflight } from './preflight.js';

/**
 * Actions on a running instance (BPM.md, "Actions"). Each checks, in order: the task exists
 * (404), the instance and task are in a state that allows it (40900), the caller may do it
 * (40301), then its own inputs (40003, 40001). Each writes one log entry of its own; moving on
 * (a completed node) adds the entries of `advance`.
 */

/** The initiator's task to edit and resubmit, due by the start node's `resubmitTimeout`. */
function openResubmitTask(ctx: EngineContext, s: InstanceState, effects: Effect[]): void {
  const deadline = ctx.tree.type === 'start' ? ctx.tree.resubmitTimeout : undefined;
  s.tasks.push(
    newTask(ctx, s, {
      nodeId: ctx.tree.id,
      kind: 'resubmit',
      assigneeId: s.initiatorId,
      status: 'pending',
      dueAt: deadline ? dueIn(ctx, deadline.hours) : null,
    }),
  );
  s.currentNodeId = ctx.tree.id;
  effects.push({ type: 'notify', kind: 'todo', userIds: [s.initiatorId], nodeId: ctx.tree.id });
}

/** Moves the cursor into `node` after this action's own effects. */
async function continueAt(
  ctx: EngineContext,
  s: InstanceState,
  node: FlowNode | null,
  effects: Effect[],
): Promise<EngineResult> {
  const next = await advance(ctx, s, node);
  return { state: next.state, effects: [...effects, ...next.effects] };
}

function finishTask(
  ctx: EngineContext,
  task: TaskState,
  result: TaskState['result'],
  comment: string | null,
) {
  task.status = 'done';
  task.result = result;
  task.comment = comment;
  task.finishedAt = ctx.now;
}

async function approve({ ctx, s, action, actor }: Step<'approve'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  checkHolder(task, actor, true);
  const comment = action.comment ?? null;
  const effects: Effect[] = [];
  if (action.form) {
    const edited = applyEdits(ctx.schema, node, s.form, action.form);
    const keys = Object.keys(action.form);
    await checkDirectoryFields(ctx.directory, ctx.schema, edited.form, keys);
    await checkFileFields(ctx.files, ctx.schema, edited.form, {
      actorId: actor.userId,
      before: s.form,
      keys,
    });
    s.form = edited.form;
    if (edited.changes.length > 0) {
      const details = { changes: edited.changes };
      effects.push(logEffect(ctx, node.id, 'edit', actor.userId, null, task.round, details));
    }
  }
  finishTask(ctx, task, actor.system ? 'auto_approved' : 'approved', comment);
  const logAction = actor.system ? 'auto_approve' : 'approve';
  effects.push(logEffect(ctx, node.id, logAction, operatorOf(actor), comment, task.round));
  const mine = sameNodeRound(task);
  // A sign chain moves on first; when it is over, the node's rule decides as for any approval.
  if (isSignChainTask(task) && settleSignChain(ctx, s, node, task, effects))
    return { state: s, effects };

  if (node.mode === 'vote') {
    const outcome = voteOutcome(s, task, node);
    if (outcome === 'open') return { state: s, effects };
    if (outcome === 'rejected') return rejectNode(ctx, s, task, node, effects);
    cancelOpenTasks(ctx, s, mine);
  } else if (node.mode === 'or') {
    cancelOpenTasks(ctx, s, mine);
  } else if (node.mode === 'and') {
    if (s.tasks.some((t) => mine(t) && isOpen(t))) return { state: s, effects };
  } else {
    const next = s.tasks
      .filter((t) => mine(t) && t.status === 'waiting')
      .sort((a, b) => a.seq - b.seq)[0];
    if (next) {
      next.status = 'pending';
      next.dueAt = dueAtFor(ctx, node);
      next.timeoutCount = 0;
      effects.push({ type: 'notify', kind: 'todo', userIds: [next.assigneeId], nodeId: node.id });
      return { state: s, effects };
    }
  }
  return continueAt(ctx, s, nextNodeAfter(ctx.tree, node.id), effects);
}

async function reject({ ctx, s, action, actor }: Step<'reject'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  checkHolder(task, actor, true);
  const comment = actor.system
    ? action.comment?.trim()
      ? action.comment
      : 'timeout'
    : requireComment(action.comment);
  finishTask(ctx, task, actor.system ? 'auto_rejected' : 'rejected', comment);
  const logAction = actor.system ? 'auto_reject' : 'reject';
  const effects = [logEffect(ctx, node.id, logAction, operatorOf(actor), comment, task.round)];
  const mine = sameNodeRound(task);
  // `or`: one rejection is a vote; the node is rejected when nobody is left to approve. `vote`:
  // rejected once the ratio can no longer be reached. A rejection in a before/after sign chain
  // is never a mere vote.
  if (!isSignChainTask(task)) {
    if (node.mode === 'or' && s.tasks.some((t) => mine(t) && isOpen(t)))
      return { state: s, effects };
    if (node.mode === 'vote' && voteOutcome(s, task, node) === 'open') return { state: s, effects };
  }
  return rejectNode(ctx, s, task, node, effects);
}

/** The node is rejected: `onReject` decides (back to the initiator, or the instance ends). */
function rejectNode(
  ctx: EngineContext,
  s: InstanceState,
  task: TaskState,
  node: ApprovalNode,
  effects: Effect[],
): EngineResult {
  if (node.onReject === 'initiator') {
    cancelOpenTasks(ctx, s, sameNodeRound(task));
    openResubmitTask(ctx, s, effects);
  } else {
    endInstance(ctx, s, 'rejected', effects);
  }
  return { state: s, effects };
}

/**
 * A `vote` node's tally over its tasks of the round (canceled ones do not count): `passed` once
 * approvals reach `passRatio` of them, `rejected` once they can no longer reach it, else `open`.
 */
function voteOutcome(s: InstanceState, task: TaskState, node: ApprovalNode) {
  const voters = s.tasks.filter((t) => sameNodeRound(task)(t) && t.status !== 'canceled');
  const approved = voters.filter(
    (t) => t.status === 'done' && (t.result === 'approved' || t.result === 'auto_approved'),
  ).length;
  const open = voters.filter(isOpen).length;
  if (reachesRatio(node, approved, voters.length)) return 'passed';
  if (!reachesRatio(node, approved + open, voters.length)) return 'rejected';
  return 'open';
}

async function returnTask({ ctx, s, action, actor }: Step<'return'>) {
  const { task, node } = pendingApprovalTask(ctx, s, action.taskId);
  checkHolder(task, actor, false);
  let target: ApprovalNode | null = null;
  if (action.to === 'previous') {
    if (!node.allowBackPrev)
      throw AppError.conflict('this node does not allow returning to the previous one');
    target = returnPreviousTarget(ctx.tree, s, task);
    if (!target) throw AppError.conflict('no earlier node on the path was approved by a person');
  }
  const comment = requireComment(action.comment);
  finishTask(ctx, task, 'returned', comment);
  cancelOpenTasks(ctx, s, sameNodeRound(task));
  const operator = operatorOf(actor);

  if (!target) {
    const effects = [logEffect(ctx, node.id, 'return_initiator', operator, comment, task.round)];
    openResubmitTask(ctx, s, effects);
    return { state: s, effects };
  }
  const effects = [logEffect(ctx, node.id, 'return_previous', operator, comment, task.round)];
  s.round += 1;
  // The path is cut back to before the target, which `advance` then enters again.
  s.path = s.path.slice(0, s.path.lastIndexOf(target.id));
  return continueAt(ctx, s, target, effects);
}

const whereNow = (s: InstanceState) => s.currentNodeId ?? s.suspendReason?.node_id ?? null;

function cancel({ ctx, s, action, actor }: Step<'cancel'>) {
  if (actor.system || actor.userId !== s.initiatorId)
    throw notAllowed('only the initiator cancels');
  if (s.status !== 'running' && s.status !== 'suspended')
    throw AppError.conflict('the instance has ended');
  if (!cancelAllowed(s)) throw AppError.conflict('an approver has already acted');
  const effects = [
    logEffect(ctx, whereNow(s), 'cancel', actor.userId, action.comment ?? null, s.round),
  ];
  endInstance(ctx, s, 'canceled', effects);
  return { state: s, effects };
}

async function resubmit({ ctx, s, action, actor }: Step<'resubmit'>) {
  if (actor.system || actor.userId !== s.initiatorId)
    throw notAllowed('only the initiator resubmits');
  if (s.status !== 'running') throw AppError.conflict('the instance is not running');
  const task = s.tasks.find(
    (t) => t.kind === 'resubmit' && t.status === 'pending' && t.assigneeId === actor.userId,
  );
  if (!task) throw AppError.conflict('nothing to resubmit');
  const refused = await preflight(ctx, { ...s, form: action.form }, s.form);
  if (refused) throw refused;
  // A closed resubmit task reads `approved`: the initiator completed it.
  finishTask(ctx, task, 'approved', null);
  s.form = { ...action.form };
  const effects = [logEffect(ctx, ctx.tree.id, 'resubmit', actor.userId, null, task.round)];
  s.round += 1;
  s.path = [ctx.tree.id];
  return continueAt(ctx, s, nextNodeAfter(ctx.tree, ctx.tree.id), effects);
}

function terminate({ ctx, s, action, actor }: Step<'terminate'>) {
  if (!actor.platformAdmin || actor.system) throw notAllowed('only a platform admin terminates');
  if (s.status !== 'running' && s.status !== 'suspended')
    throw AppError.conflict('the instance has ended');
  const effects = [
    logEffect(ctx, whereNow(s), 'terminate', actor.userId, action.comment ?? null, s.round),
  ];
  endInstance(ctx, s, 'terminated', effects);
  return { state: s, effects };
}

/** Applies one action by `actor`; returns the new state and what persistence must write. */
export async function applyAction(
  ctx: EngineContext,
  state: InstanceState,
  action: Action,
  actor: Actor,
): Promise<EngineResult> {
  const s = cloneState(state);
  switch (action.type) {
    case 'approve':
      return approve({ ctx, s, action, actor });
    case 'reject':
      return reject({ ctx, s, action, actor });
    case 'return':
      return returnTask({ ctx, s, action, actor });
    case 'transfer':
      return transfer({ ctx, s, action, actor });
    case 'reassign':
      return reassign({ ctx, s, action, actor });
    case 'hand_to_stand_in':
      return handToStandIn({ ctx, s, action, actor });
    case 'delegate':
      return delegate({ ctx, s, action, actor });
    case 'resolve':
      return resolve({ ctx, s, action, actor });
    case 'add_sign':
      return addSign({ ctx, s, action, actor });
    case 'reduce_sign':
      return reduceSign({ ctx, s, action, actor });
    case 'cancel':
      return cancel({ ctx, s, action, actor });
    case 'resubmit':
      return resubmit({ ctx, s, action, actor });
    case 'terminate':
      return terminate({ ctx, s, action, actor });
    case 'resume':
      return resume({ ctx, s, action, actor });
    case 'urge':
      return urge({ ctx, s, action, actor });
    case 'timeout':
      return timeout({ ctx, s, action, actor }, (next) => applyAction(ctx, state, next, actor));
    case 'withdraw':
      return withdraw({ ctx, s, action, actor });
  }
}
