import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import { availableActions } from './available.js';
import {
  SYSTEM,
  admin,
  approval,
  chain,
  pendingOf,
  person,
  start,
  testContext,
  users,
} from './directory.test-support.js';
import type { Action, ApprovalNode, EngineContext, FlowNode, InstanceState } from './types.js';

const INITIATOR = 30;

async function started(tree: FlowNode) {
  const ctx = testContext(tree);
  const { state } = await startInstance(ctx, {
    form: {},
    initiatorId: INITIATOR,
    initiatorDeptId: 2,
    initiatorRoleIds: [],
    selectedAssignees: {},
  });
  return { ctx, state };
}

const run = async (ctx: EngineContext, s: InstanceState, action: Action, userId: number) =>
  (await applyAction(ctx, s, action, person(userId))).state;

const oneNode = (extra: Partial<ApprovalNode> = {}) =>
  chain(start(), approval('a', users(1, 2), extra));

describe('availableActions', () => {
  it('offers the holder of a pending task every task action, in the documented order', async () => {
    const { ctx, state } = await started(oneNode());
    const taskId = pendingOf(state.tasks, 1).id;
    expect(availableActions(ctx.tree, state, person(1), taskId)).toEqual([
      'approve',
      'reject',
      'transfer',
      'return_initiator',
      'add_sign',
      'delegate',
    ]);
  });

  it('leaves out add-sign in sequential mode', async () => {
    const { ctx, state } = await started(oneNode({ mode: 'sequential' }));
    const taskId = pendingOf(state.tasks, 1).id;
    expect(availableActions(ctx.tree, state, person(1), taskId)).not.toContain('add_sign');
  });

  it('offers return-previous only when the node allows it and a person approved an earlier node', async () => {
    const tree = chain(
      start(),
      approval('a', users(1), { allowBackPrev: true }),
      approval('b', users(2), { allowBackPrev: true }),
    );
    const { ctx, state } = await started(tree);
    expect(
      availableActions(ctx.tree, state, person(1), pendingOf(state.tasks, 1).id),
    ).not.toContain('return_previous');
    const s = await run(ctx, state, { type: 'approve', taskId: pendingOf(state.tasks, 1).id }, 1);
    const taskId = pendingOf(s.tasks, 2).id;
    expect(availableActions(ctx.tree, s, person(2), taskId)).toContain('return_previous');
    const back = await run(ctx, s, { type: 'return', taskId, to: 'previous', comment: 'x' }, 2);
    expect(back.currentNodeId).toBe('a');
  });

  it('offers the delegatee only resolve, and the delegator nothing on that task', async () => {
    const { ctx, state } = await started(oneNode());
    const taskId = pendingOf(state.tasks, 1).id;
    const s = await run(ctx, state, { type: 'delegate', taskId, toUserId: 7 }, 1);
    expect(availableActions(ctx.tree, s, person(7), taskId)).toEqual(['resolve']);
    expect(availableActions(ctx.tree, s, person(1), taskId)).toEqual([]);
  });

  it('offers nothing on a task the actor does not hold or that is no longer pending', async () => {
    const { ctx, state } = await started(oneNode());
    const taskId = pendingOf(state.tasks, 1).id;
    expect(availableActions(ctx.tree, state, person(2), taskId)).toEqual([]);
    const s = await run(ctx, state, { type: 'approve', taskId }, 1);
    expect(availableActions(ctx.tree, s, person(1), taskId)).toEqual([]);
  });

  it('offers the initiator cancel until a person acts', async () => {
    const { ctx, state } = await started(oneNode());
    expect(availableActions(ctx.tree, state, person(INITIATOR))).toEqual(['urge', 'cancel']);
    const s = await run(ctx, state, { type: 'approve', taskId: pendingOf(state.tasks, 1).id }, 1);
    expect(availableActions(ctx.tree, s, person(INITIATOR))).toEqual(['urge']);
  });

  it('offers the initiator resubmit and cancel on a pending resubmit task', async () => {
    const { ctx, state } = await started(oneNode({ onReject: 'initiator' }));
    const s = await run(
      ctx,
      state,
      { type: 'reject', taskId: pendingOf(state.tasks, 1).id, comment: 'no' },
      1,
    );
    const resubmitTask = pendingOf(s.tasks, INITIATOR).id;
    expect(availableActions(ctx.tree, s, person(INITIATOR), resubmitTask)).toEqual([
      'resubmit',
      'cancel',
    ]);
    expect(availableActions(ctx.tree, s, person(INITIATOR))).toEqual(['resubmit', 'cancel']);
  });

  it('offers cancel beside resubmit when the system rejected', async () => {
    const { ctx, state } = await started(oneNode({ onReject: 'initiator', mode: 'and' }));
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: s } = await applyAction(
      ctx,
      state,
      { type: 'reject', taskId, comment: 'timeout' },
      SYSTEM,
    );
    expect(availableActions(ctx.tree, s, person(INITIATOR))).toEqual(['resubmit', 'cancel']);
  });

  it('offers a platform admin terminate on running and suspended instances only', async () => {
    const running = await started(oneNode());
    expect(availableActions(running.ctx.tree, running.state, admin())).toEqual(['terminate']);
    const suspended = await started(chain(start(), approval('a', users(99))));
    expect(availableActions(suspended.ctx.tree, suspended.state, admin())).toEqual(['terminate']);
    const { state: ended } = await applyAction(
      running.ctx,
      running.state,
      { type: 'terminate' },
      admin(),
    );
    expect(availableActions(running.ctx.tree, ended, admin())).toEqual([]);
  });

  it('merges the roles of an actor who is both assignee and initiator', async () => {
    const { ctx, state } = await started(
      chain(start(), approval('a', users(INITIATOR), { allowInitiator: true })),
    );
    const taskId = pendingOf(state.tasks, INITIATOR).id;
    const actions = availableActions(
      ctx.tree,
      state,
      { userId: INITIATOR, platformAdmin: true },
      taskId,
    );
    expect(actions.slice(0, 2)).toEqual(['approve', 'reject']);
    expect(actions.slice(-2)).toEqual(['cancel', 'terminate']);
  });
});
