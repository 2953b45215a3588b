import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import {
  DEFAULT_DIRECTORY,
  NOW,
  SYSTEM,
  approval,
  chain,
  deepFreeze,
  logActions,
  logs,
  pendingOf,
  person,
  start,
  tasksOf,
  testContext,
  users,
} from './directory.test-support.js';
import type { ApprovalNode, EngineContext, FlowNode, InstanceState } from './types.js';

const INITIATOR = 30;

async function started(tree: FlowNode, ctx: EngineContext = testContext(tree)) {
  const { state } = await startInstance(ctx, {
    form: { amount: 500 },
    initiatorId: INITIATOR,
    initiatorDeptId: 2,
    initiatorRoleIds: [],
    selectedAssignees: {},
  });
  return { ctx, state };
}

const twoNodes = (a: Partial<ApprovalNode>, assignees = [1, 2, 3]) =>
  chain(start(), approval('a', users(...assignees), a), approval('b', users(9)));

const approve = (ctx: EngineContext, state: InstanceState, userId: number) =>
  applyAction(
    ctx,
    state,
    { type: 'approve', taskId: pendingOf(state.tasks, userId).id },
    person(userId),
  );
const reject = (ctx: EngineContext, state: InstanceState, userId: number, comment = 'no') =>
  applyAction(
    ctx,
    state,
    { type: 'reject', taskId: pendingOf(state.tasks, userId).id, comment },
    person(userId),
  );

describe('approve', () => {
  it('and: the node waits for every task, then moves on', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'and' }));
    const one = await approve(ctx, state, 1);
    expect(one.state.currentNodeId).toBe('a');
    expect(logActions(one.effects)).toEqual(['approve']);
    const two = await approve(ctx, one.state, 2);
    const three = await approve(ctx, two.state, 3);
    expect(three.state.currentNodeId).toBe('b');
    expect(three.state.path).toEqual(['start', 'a', 'b']);
    expect(tasksOf(three.state.tasks, 'a').map((t) => t.result)).toEqual([
      'approved',
      'approved',
      'approved',
    ]);
  });

  it('or: the first approval completes the node and cancels the other pending tasks', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'or' }));
    const { state: next } = await approve(ctx, state, 2);
    expect(tasksOf(next.tasks, 'a').map((t) => t.status)).toEqual(['canceled', 'done', 'canceled']);
    expect(next.currentNodeId).toBe('b');
  });

  it('or: a second approval finds its task canceled and is refused with 40900', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'or' }));
    const taskOf3 = pendingOf(state.tasks, 3).id;
    const { state: next } = await approve(ctx, state, 2);
    await expect(
      applyAction(ctx, next, { type: 'approve', taskId: taskOf3 }, person(3)),
    ).rejects.toMatchObject({
      code: 40900,
    });
  });

  it('sequential: each approval activates the next queued task with its own due time', async () => {
    const tree = twoNodes({ mode: 'sequential', timeout: { hours: 2, action: 'remind' } });
    const { state } = await started(tree);
    const later = testContext(tree, DEFAULT_DIRECTORY, NOW + 60_000);
    const one = await approve(later, state, 1);
    expect(tasksOf(one.state.tasks, 'a').map((t) => [t.status, t.dueAt])).toEqual([
      ['done', NOW + 7_200_000],
      ['pending', NOW + 60_000 + 7_200_000],
      ['waiting', null],
    ]);
    expect(one.effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [2], nodeId: 'a' });
    const three = await approve(later, (await approve(later, one.state, 2)).state, 3);
    expect(three.state.currentNodeId).toBe('b');
  });

  it('approving the last node approves the instance', async () => {
    const { ctx, state } = await started(chain(start(), approval('a', users(1))));
    const { state: next, effects } = await approve(ctx, state, 1);
    expect(next.status).toBe('approved');
    expect(logActions(effects)).toEqual(['approve', 'finish']);
    expect(effects).toContainEqual({ type: 'terminal', status: 'approved' });
  });

  it('merges the approver form edits over the snapshot', async () => {
    const begun = await started(
      chain(start(), approval('a', users(1, 2), { editableFields: ['note'] })),
    );
    const { state } = begun;
    const ctx = {
      ...begun.ctx,
      schema: { fields: [{ key: 'note', label: 'Note', type: 'input' as const }] },
    };
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: next } = await applyAction(
      ctx,
      state,
      { type: 'approve', taskId, form: { note: 'ok' } },
      person(1),
    );
    expect(next.form).toEqual({ amount: 500, note: 'ok' });
  });

  it('does not change the state it was given', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'or' }));
    const frozen = deepFreeze(structuredClone(state));
    const { state: next } = await approve(ctx, frozen, 1);
    expect(frozen.currentNodeId).toBe('a');
    expect(next.currentNodeId).toBe('b');
  });
});

describe('reject', () => {
  it.each(['and', 'sequential'] as const)(
    '%s: one rejection rejects the node and the instance',
    async (mode) => {
      const { ctx, state } = await started(twoNodes({ mode }));
      const { state: next, effects } = await reject(ctx, state, 1);
      expect(next.status).toBe('rejected');
      expect(tasksOf(next.tasks, 'a').map((t) => t.status)).toEqual([
        'done',
        'canceled',
        'canceled',
      ]);
      expect(logs(effects)[0]).toMatchObject({
        action: 'reject',
        operatorId: 1,
        comment: 'no',
        nodeId: 'a',
        round: 1,
      });
      expect(effects).toContainEqual({ type: 'terminal', status: 'rejected' });
      expect(effects).toContainEqual({
        type: 'notify',
        kind: 'terminal',
        userIds: [INITIATOR],
        nodeId: null,
      });
    },
  );

  it('or: the node is rejected only once every task has rejected', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'or' }, [1, 2]));
    const one = await reject(ctx, state, 1);
    expect(one.state.status).toBe('running');
    expect(pendingOf(one.state.tasks, 2)).toBeDefined();
    const two = await reject(ctx, one.state, 2);
    expect(two.state.status).toBe('rejected');
  });

  it('or: an approval after a rejection still completes the node', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'or' }, [1, 2]));
    const { state: next } = await approve(ctx, (await reject(ctx, state, 1)).state, 2);
    expect(next.currentNodeId).toBe('b');
  });

  it.each([undefined, '', '   '])('requires a comment (40003), refusing %j', async (comment) => {
    const { ctx, state } = await started(twoNodes({}));
    const action = { type: 'reject', taskId: pendingOf(state.tasks, 1).id, comment } as never;
    await expect(applyAction(ctx, state, action, person(1))).rejects.toMatchObject({ code: 40003 });
  });

  it('onReject initiator: cancels the node tasks and opens a resubmit task for the initiator', async () => {
    const { ctx, state } = await started(twoNodes({ onReject: 'initiator' }));
    const { state: next, effects } = await reject(ctx, state, 2);
    expect(next.status).toBe('running');
    expect(next.currentNodeId).toBe('start');
    expect(tasksOf(next.tasks, 'a').map((t) => t.status)).toEqual(['canceled', 'done', 'canceled']);
    expect(next.tasks.at(-1)).toMatchObject({
      kind: 'resubmit',
      nodeId: 'start',
      assigneeId: INITIATOR,
      status: 'pending',
      round: 1,
    });
    expect(effects).toContainEqual({
      type: 'notify',
      kind: 'todo',
      userIds: [INITIATOR],
      nodeId: 'start',
    });
    expect(effects.some((e) => e.type === 'terminal')).toBe(false);
  });
});

describe('who may act, and when', () => {
  it('refuses a task held by someone else with 40301', async () => {
    const { ctx, state } = await started(twoNodes({}));
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(
      applyAction(ctx, state, { type: 'approve', taskId }, person(2)),
    ).rejects.toMatchObject({ code: 40301 });
  });

  it('refuses acting twice on one task with 40900', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'and' }));
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: next } = await applyAction(ctx, state, { type: 'approve', taskId }, person(1));
    await expect(
      applyAction(ctx, next, { type: 'approve', taskId }, person(1)),
    ).rejects.toMatchObject({ code: 40900 });
  });

  it('refuses a waiting sequential task with 40900', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'sequential' }));
    const waiting = tasksOf(state.tasks, 'a')[1]!;
    await expect(
      applyAction(ctx, state, { type: 'approve', taskId: waiting.id }, person(2)),
    ).rejects.toMatchObject({
      code: 40900,
    });
  });

  it('refuses an unknown task with 40400', async () => {
    const { ctx, state } = await started(twoNodes({}));
    await expect(
      applyAction(ctx, state, { type: 'approve', taskId: 12345 }, person(1)),
    ).rejects.toMatchObject({ code: 40400 });
  });
});

describe('timeouts act as the system', () => {
  it('auto-approves any pending task, logged as operator 0', async () => {
    const { ctx, state } = await started(twoNodes({ mode: 'or' }));
    const taskId = pendingOf(state.tasks, 3).id;
    const { state: next, effects } = await applyAction(
      ctx,
      state,
      { type: 'approve', taskId, comment: 'timeout' },
      SYSTEM,
    );
    expect(next.tasks.find((t) => t.id === taskId)?.result).toBe('auto_approved');
    expect(logs(effects)[0]).toMatchObject({
      action: 'auto_approve',
      operatorId: 0,
      comment: 'timeout',
    });
    expect(next.currentNodeId).toBe('b');
  });

  it('auto-rejects with comment "timeout" and follows onReject', async () => {
    const { ctx, state } = await started(twoNodes({ onReject: 'initiator' }));
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: next, effects } = await applyAction(
      ctx,
      state,
      { type: 'reject', taskId, comment: 'timeout' },
      SYSTEM,
    );
    expect(next.tasks.find((t) => t.id === taskId)).toMatchObject({
      result: 'auto_rejected',
      comment: 'timeout',
    });
    expect(logs(effects)[0]).toMatchObject({ action: 'auto_reject', operatorId: 0 });
    expect(next.tasks.at(-1)?.kind).toBe('resubmit');
  });

  it('may not do anything but approve or reject', async () => {
    const { ctx, state } = await started(twoNodes({}));
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(
      applyAction(ctx, state, { type: 'transfer', taskId, toUserId: 7 }, SYSTEM),
    ).rejects.toMatchObject({
      code: 40301,
    });
  });
});

describe('vote mode', () => {
  const voting = (ratio: number, onReject?: 'initiator') =>
    chain(
      start(),
      approval('v', users(1, 2, 3, 4), {
        mode: 'vote',
        passRatio: ratio,
        ...(onReject ? { onReject } : {}),
      }),
      approval('after', users(9)),
    );
  const approveBy = (ctx: EngineContext, s: InstanceState, user: number) =>
    applyAction(ctx, s, { type: 'approve', taskId: pendingOf(s.tasks, user).id }, person(user));
  const rejectBy = (ctx: EngineContext, s: InstanceState, user: number) =>
    applyAction(
      ctx,
      s,
      { type: 'reject', taskId: pendingOf(s.tasks, user).id, comment: 'no' },
      person(user),
    );

  it('passes once approvals reach the ratio, canceling the votes left', async () => {
    const { ctx, state } = await started(voting(0.5));
    let s = (await approveBy(ctx, state, 1)).state;
    expect(s.currentNodeId).toBe('v');
    s = (await rejectBy(ctx, s, 2)).state;
    expect(s.currentNodeId).toBe('v');
    s = (await approveBy(ctx, s, 3)).state;
    expect(s.currentNodeId).toBe('after');
    expect(s.tasks.find((t) => t.assigneeId === 4)?.status).toBe('canceled');
  });

  it('is rejected as soon as the ratio can no longer be reached; a rejection alone is a vote', async () => {
    const { ctx, state } = await started(voting(0.75));
    let s = (await rejectBy(ctx, state, 1)).state;
    expect(s.status).toBe('running');
    s = (await rejectBy(ctx, s, 2)).state;
    expect(s.status).toBe('rejected');
  });

  it('follows onReject when it fails, and needs every vote at ratio 1', async () => {
    const { ctx, state } = await started(voting(1, 'initiator'));
    let s = (await approveBy(ctx, state, 1)).state;
    s = (await rejectBy(ctx, s, 2)).state;
    expect(s.status).toBe('running');
    expect(s.tasks.some((t) => t.kind === 'resubmit' && t.status === 'pending')).toBe(true);
  });
});
