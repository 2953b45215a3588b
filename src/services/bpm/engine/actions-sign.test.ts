import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { availableActions } from './available.js';
import {
  INITIATOR,
  actAs,
  approval,
  approveBy,
  chain,
  logActions,
  logs,
  pendingOf,
  person,
  start,
  started,
  tasksOf,
  users,
} from './directory.test-support.js';
import type { AddSignPosition, ApprovalNode, InstanceState } from './types.js';

const line = (a: Partial<ApprovalNode> = {}, assignees = [1]) =>
  chain(start(), approval('a', users(...assignees), a), approval('b', users(9)));

const statusOf = (s: InstanceState, userId: number) =>
  tasksOf(s.tasks, 'a')
    .filter((t) => t.assigneeId === userId)
    .map((t) => t.status);

async function signed(position: AddSignPosition, a: Partial<ApprovalNode> = {}, holders = [1]) {
  const { ctx, state } = await started(line(a, holders));
  const taskId = pendingOf(state.tasks, 1).id;
  const res = await actAs(ctx)(state, { type: 'add_sign', taskId, userIds: [2, 3], position }, 1);
  return { ctx, taskId, ...res };
}

describe('before add-sign (前加签)', () => {
  it('suspends the caller while the added users approve in order, then reopens the caller', async () => {
    const { ctx, taskId, state, effects } = await signed('before');
    expect(logs(effects)).toMatchObject([
      { action: 'add_sign', details: { user_ids: [2, 3], position: 'before' } },
    ]);
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [2], nodeId: 'a' });
    expect([statusOf(state, 1), statusOf(state, 2), statusOf(state, 3)]).toEqual([
      ['waiting'],
      ['pending'],
      ['waiting'],
    ]);
    const s2 = await approveBy(ctx, state, 2);
    expect([statusOf(s2, 1), statusOf(s2, 3)]).toEqual([['waiting'], ['pending']]);
    const s3 = await approveBy(ctx, s2, 3);
    expect(statusOf(s3, 1)).toEqual(['pending']);
    expect(s3.currentNodeId).toBe('a');
    const s4 = (await actAs(ctx)(s3, { type: 'approve', taskId }, 1)).state;
    expect(s4.currentNodeId).toBe('b');
  });

  it('a rejection in the chain follows onReject, even in `or` mode', async () => {
    const { ctx, state } = await signed('before', { mode: 'or', onReject: 'initiator' }, [1, 4]);
    const r = await actAs(ctx)(
      state,
      { type: 'reject', taskId: pendingOf(state.tasks, 2).id, comment: 'no' },
      2,
    );
    expect(tasksOf(r.state.tasks, 'a').filter((t) => t.status === 'pending')).toEqual([]);
    expect(r.state.tasks.find((t) => t.kind === 'resubmit')?.status).toBe('pending');
  });

  it('in `or` mode another holder\u2019s approval still completes the node', async () => {
    const { ctx, state } = await signed('before', { mode: 'or' }, [1, 4]);
    const s = await approveBy(ctx, state, 4);
    expect(s.currentNodeId).toBe('b');
    expect(statusOf(s, 1)).toEqual(['canceled']);
  });

  it('offers the waiting caller only reduce-sign', async () => {
    const { ctx, taskId, state } = await signed('before');
    expect(availableActions(ctx.tree, state, person(1), taskId)).toEqual(['reduce_sign']);
  });
});

describe('after add-sign (后加签)', () => {
  it('approves the caller now; the node completes after the added users approve in order', async () => {
    const { ctx, state, effects } = await signed('after');
    expect(logActions(effects)).toEqual(['approve', 'add_sign']);
    expect(logs(effects)[1]?.details).toEqual({ user_ids: [2, 3], position: 'after' });
    expect(tasksOf(state.tasks, 'a').find((t) => t.assigneeId === 1)?.result).toBe('approved');
    expect([statusOf(state, 2), statusOf(state, 3)]).toEqual([['pending'], ['waiting']]);
    expect(state.currentNodeId).toBe('a');
    const s2 = await approveBy(ctx, state, 2);
    expect(s2.currentNodeId).toBe('a');
    const s3 = await approveBy(ctx, s2, 3);
    expect(s3.currentNodeId).toBe('b');
  });

  it('in `and` mode the node still waits for the other holders', async () => {
    const { ctx, state } = await signed('after', { mode: 'and' }, [1, 4]);
    const s = await approveBy(ctx, await approveBy(ctx, state, 2), 3);
    expect(s.currentNodeId).toBe('a');
    expect((await approveBy(ctx, s, 4)).currentNodeId).toBe('b');
  });

  it('a rejection in the chain ends the instance by default', async () => {
    const { ctx, state } = await signed('after');
    const r = await actAs(ctx)(
      state,
      { type: 'reject', taskId: pendingOf(state.tasks, 2).id, comment: 'no' },
      2,
    );
    expect(r.state.status).toBe('rejected');
  });
});

describe('before/after add-sign: the rules of add-sign', () => {
  it.each(['before', 'after'] as const)('%s is 40900 in sequential mode', async (position) => {
    const { ctx, state } = await started(line({ mode: 'sequential' }));
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(
      actAs(ctx)(state, { type: 'add_sign', taskId, userIds: [2], position }, 1),
    ).rejects.toMatchObject({ code: 40900 });
  });

  it.each([
    ['the initiator', [INITIATOR]],
    ['the caller', [1]],
    ['a user already on the node', [4]],
    ['an inactive user', [99]],
    ['an unknown user', [12345]],
  ])('refuses %s (40001)', async (_, userIds) => {
    for (const position of ['before', 'after'] as const) {
      const { ctx, state } = await started(line({}, [1, 4]));
      const taskId = pendingOf(state.tasks, 1).id;
      await expect(
        actAs(ctx)(state, { type: 'add_sign', taskId, userIds, position }, 1),
      ).rejects.toMatchObject({ code: 40001 });
    }
  });

  it('refuses a second chain on the node while one is open (40900)', async () => {
    const { ctx, state } = await signed('after', { mode: 'and' }, [1, 4]);
    const taskId = pendingOf(state.tasks, 4).id;
    await expect(
      actAs(ctx)(state, { type: 'add_sign', taskId, userIds: [5], position: 'before' }, 4),
    ).rejects.toMatchObject({ code: 40900 });
  });
});

describe('reduce-sign on a sign chain', () => {
  it('the waiting caller removes the pending signer; the next one opens, then the caller', async () => {
    const { ctx, taskId, state } = await signed('before');
    const s1 = (await actAs(ctx)(state, { type: 'reduce_sign', taskId, userIds: [2] }, 1)).state;
    expect([statusOf(s1, 1), statusOf(s1, 2), statusOf(s1, 3)]).toEqual([
      ['waiting'],
      ['canceled'],
      ['pending'],
    ]);
    const r = await actAs(ctx)(s1, { type: 'reduce_sign', taskId, userIds: [3] }, 1);
    expect(statusOf(r.state, 1)).toEqual(['pending']);
    expect(logs(r.effects)[0]).toMatchObject({ action: 'reduce_sign', details: { user_ids: [3] } });
  });

  it('removes a waiting signer of an after chain; the node completes without them', async () => {
    const { ctx, state } = await signed('after', { mode: 'and' }, [1, 4]);
    const holder = pendingOf(state.tasks, 4).id;
    const s1 = (await actAs(ctx)(state, { type: 'reduce_sign', taskId: holder, userIds: [3] }, 4))
      .state;
    expect(statusOf(s1, 3)).toEqual(['canceled']);
    const s2 = await approveBy(ctx, await approveBy(ctx, s1, 2), 4);
    expect(s2.currentNodeId).toBe('b');
  });

  it('refuses a signer of the chain who already approved (40001)', async () => {
    const { ctx, taskId, state } = await signed('before');
    const s = await approveBy(ctx, state, 2);
    await expect(
      applyAction(ctx, s, { type: 'reduce_sign', taskId, userIds: [2] }, person(1)),
    ).rejects.toMatchObject({ code: 40001 });
  });
});
