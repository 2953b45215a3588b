import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import {
  admin,
  approval,
  chain,
  logs,
  pendingOf,
  person,
  start,
  tasksOf,
  testContext,
  users,
} from './directory.test-support.js';
import type { Action, ApprovalNode, InstanceState } from './types.js';

/** Transfer, delegate / resolve and add-sign: the ways a task changes hands. */

async function started(node: Partial<ApprovalNode> = {}, assignees = [1, 2]) {
  const ctx = testContext(
    chain(start(), approval('a', users(...assignees), node), approval('b', users(9))),
  );
  const { state } = await startInstance(ctx, {
    form: {},
    initiatorId: 30,
    initiatorDeptId: 2,
    initiatorRoleIds: [],
    selectedAssignees: {},
  });
  const act = (s: InstanceState, action: Action, userId: number) =>
    applyAction(ctx, s, action, person(userId));
  return { ctx, state, act };
}

describe('transfer', () => {
  it('keeps the task pending under the new assignee and notifies them', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: next, effects } = await act(
      state,
      { type: 'transfer', taskId, toUserId: 7, comment: 'on leave' },
      1,
    );
    expect(next.tasks.find((t) => t.id === taskId)).toMatchObject({
      assigneeId: 7,
      originalAssigneeId: 1,
      status: 'pending',
    });
    expect(logs(effects)).toEqual([
      expect.objectContaining({ action: 'transfer', operatorId: 1, comment: 'on leave' }),
    ]);
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [7], nodeId: 'a' });
  });

  it('keeps the first holder as original assignee across two transfers', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const once = await act(state, { type: 'transfer', taskId, toUserId: 7 }, 1);
    const twice = await act(once.state, { type: 'transfer', taskId, toUserId: 8 }, 7);
    expect(twice.state.tasks.find((t) => t.id === taskId)).toMatchObject({
      assigneeId: 8,
      originalAssigneeId: 1,
    });
  });

  it('lets the new holder decide and no longer the old one', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: moved } = await act(state, { type: 'transfer', taskId, toUserId: 7 }, 1);
    await expect(act(moved, { type: 'approve', taskId }, 1)).rejects.toMatchObject({ code: 40301 });
    const { state: done } = await act(moved, { type: 'approve', taskId }, 7);
    expect(done.tasks.find((t) => t.id === taskId)?.result).toBe('approved');
  });

  it.each([
    ['yourself', 1],
    ['an inactive user', 99],
    ['an unknown user', 500],
    ['someone already on the node', 2],
  ])('refuses a transfer to %s with 40001', async (_, toUserId) => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(act(state, { type: 'transfer', taskId, toUserId }, 1)).rejects.toMatchObject({
      code: 40001,
    });
  });

  it('refuses a transfer by someone who does not hold the task with 40301', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(act(state, { type: 'transfer', taskId, toUserId: 7 }, 2)).rejects.toMatchObject({
      code: 40301,
    });
  });
});

describe('delegate and resolve', () => {
  it('hands the task to the delegatee, recording the delegator and a delegation', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: next, effects } = await act(state, { type: 'delegate', taskId, toUserId: 7 }, 1);
    expect(next.tasks.find((t) => t.id === taskId)).toMatchObject({
      assigneeId: 7,
      delegatorId: 1,
      status: 'pending',
    });
    expect(effects).toContainEqual({ type: 'delegation', taskId, fromUserId: 1, toUserId: 7 });
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [7], nodeId: 'a' });
  });

  it('lets the delegatee only resolve, which hands the task back pending to the delegator', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: delegated } = await act(state, { type: 'delegate', taskId, toUserId: 7 }, 1);
    await expect(act(delegated, { type: 'approve', taskId }, 7)).rejects.toMatchObject({
      code: 40301,
    });
    await expect(act(delegated, { type: 'approve', taskId }, 1)).rejects.toMatchObject({
      code: 40301,
    });
    const { state: back, effects } = await act(
      delegated,
      { type: 'resolve', taskId, comment: 'looks fine' },
      7,
    );
    expect(back.tasks.find((t) => t.id === taskId)).toMatchObject({
      assigneeId: 1,
      delegatorId: null,
      status: 'pending',
    });
    expect(logs(effects)).toEqual([
      expect.objectContaining({ action: 'resolve', operatorId: 7, comment: 'looks fine' }),
    ]);
    const { state: done } = await act(back, { type: 'approve', taskId }, 1);
    expect(done.tasks.find((t) => t.id === taskId)?.result).toBe('approved');
  });

  it.each([
    ['yourself', 1],
    ['an inactive user', 99],
  ])('refuses a delegation to %s with 40001', async (_, toUserId) => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(act(state, { type: 'delegate', taskId, toUserId }, 1)).rejects.toMatchObject({
      code: 40001,
    });
  });

  it('refuses resolve by anyone but the delegatee (40301) and on an undelegated task (40900)', async () => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(act(state, { type: 'resolve', taskId }, 1)).rejects.toMatchObject({ code: 40900 });
    const { state: delegated } = await act(state, { type: 'delegate', taskId, toUserId: 7 }, 1);
    await expect(act(delegated, { type: 'resolve', taskId }, 1)).rejects.toMatchObject({
      code: 40301,
    });
  });
});

describe('add-sign', () => {
  it('and: adds pending tasks on the same node and round that the node then waits for', async () => {
    const { state, act } = await started({ mode: 'and' });
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: signed, effects } = await act(
      state,
      { type: 'add_sign', taskId, userIds: [7, 8] },
      1,
    );
    expect(
      tasksOf(signed.tasks, 'a').map((t) => [t.assigneeId, t.status, t.addedBySign, t.round]),
    ).toEqual([
      [1, 'pending', false, 1],
      [2, 'pending', false, 1],
      [7, 'pending', true, 1],
      [8, 'pending', true, 1],
    ]);
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [7, 8], nodeId: 'a' });
    let s = signed;
    for (const u of [1, 2, 7])
      s = (await act(s, { type: 'approve', taskId: pendingOf(s.tasks, u).id }, u)).state;
    expect(s.currentNodeId).toBe('a');
    s = (await act(s, { type: 'approve', taskId: pendingOf(s.tasks, 8).id }, 8)).state;
    expect(s.currentNodeId).toBe('b');
  });

  it('or: an added user approval completes the node', async () => {
    const { state, act } = await started({ mode: 'or' });
    const { state: signed } = await act(
      state,
      { type: 'add_sign', taskId: pendingOf(state.tasks, 1).id, userIds: [7] },
      1,
    );
    const { state: next } = await act(
      signed,
      { type: 'approve', taskId: pendingOf(signed.tasks, 7).id },
      7,
    );
    expect(next.currentNodeId).toBe('b');
    expect(tasksOf(next.tasks, 'a').filter((t) => t.status === 'canceled')).toHaveLength(2);
  });

  it('or: added users count in the every-task-rejected rule', async () => {
    const { state, act } = await started({ mode: 'or' }, [1]);
    const { state: signed } = await act(
      state,
      { type: 'add_sign', taskId: pendingOf(state.tasks, 1).id, userIds: [7] },
      1,
    );
    const one = await act(
      signed,
      { type: 'reject', taskId: pendingOf(signed.tasks, 1).id, comment: 'no' },
      1,
    );
    expect(one.state.status).toBe('running');
    const two = await act(
      one.state,
      { type: 'reject', taskId: pendingOf(one.state.tasks, 7).id, comment: 'no' },
      7,
    );
    expect(two.state.status).toBe('rejected');
  });

  it('skips users already on the node and duplicates', async () => {
    const { state, act } = await started();
    const { state: signed } = await act(
      state,
      { type: 'add_sign', taskId: pendingOf(state.tasks, 1).id, userIds: [2, 7, 7, 1] },
      1,
    );
    expect(tasksOf(signed.tasks, 'a').map((t) => t.assigneeId)).toEqual([1, 2, 7]);
  });

  it.each([
    ['no users', []],
    ['only users already on the node', [1, 2]],
    ['an inactive user', [7, 99]],
  ])('refuses %s with 40001', async (_, userIds) => {
    const { state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(act(state, { type: 'add_sign', taskId, userIds }, 1)).rejects.toMatchObject({
      code: 40001,
    });
  });

  it('is refused in sequential mode with 40900', async () => {
    const { state, act } = await started({ mode: 'sequential' });
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(act(state, { type: 'add_sign', taskId, userIds: [7] }, 1)).rejects.toMatchObject({
      code: 40900,
    });
  });
});

describe('reassign (platform admin)', () => {
  const byAdmin = (
    ctx: Awaited<ReturnType<typeof started>>['ctx'],
    s: InstanceState,
    action: Action,
  ) => applyAction(ctx, s, action, admin());

  it('moves a pending task to another active user, keeping the first holder, logged and notified', async () => {
    const { ctx, state } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const { state: next, effects } = await byAdmin(ctx, state, {
      type: 'reassign',
      taskId,
      fromUserId: 1,
      toUserId: 7,
      comment: 'left the company',
    });
    expect(next.tasks.find((t) => t.id === taskId)).toMatchObject({
      status: 'pending',
      assigneeId: 7,
      originalAssigneeId: 1,
    });
    expect(logs(effects)).toEqual([
      expect.objectContaining({
        action: 'reassign',
        operatorId: 1000,
        comment: 'left the company',
        details: { task_id: taskId, from_user_id: 1, to_user_id: 7 },
      }),
    ]);
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [7], nodeId: 'a' });
  });

  it('moves a waiting task of a sequential node without notifying yet', async () => {
    const { ctx, state } = await started({ mode: 'sequential' });
    const waiting = state.tasks.find((t) => t.assigneeId === 2)!;
    expect(waiting.status).toBe('waiting');
    const { state: next, effects } = await byAdmin(ctx, state, {
      type: 'reassign',
      taskId: waiting.id,
      fromUserId: 2,
      toUserId: 7,
    });
    expect(next.tasks.find((t) => t.id === waiting.id)).toMatchObject({
      status: 'waiting',
      assigneeId: 7,
    });
    expect(effects.some((e) => e.type === 'notify')).toBe(false);
  });

  it('ends a delegation in progress: the new holder decides', async () => {
    const { ctx, state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const lent = (await act(state, { type: 'delegate', taskId, toUserId: 5 }, 1)).state;
    const { state: next, effects } = await byAdmin(ctx, lent, {
      type: 'reassign',
      taskId,
      fromUserId: 5,
      toUserId: 7,
    });
    expect(next.tasks.find((t) => t.id === taskId)).toMatchObject({
      assigneeId: 7,
      delegatorId: null,
    });
    expect(effects).toContainEqual({ type: 'delegation_resolved', taskId });
  });

  it('refuses anyone but a platform admin (40301), a done task (40900), a moved task (40900) and bad targets (40001)', async () => {
    const { ctx, state, act } = await started();
    const taskId = pendingOf(state.tasks, 1).id;
    const move = (toUserId: number, fromUserId = 1) =>
      ({ type: 'reassign', taskId, fromUserId, toUserId }) as Action;
    await expect(act(state, move(7), 1)).rejects.toMatchObject({ code: 40301 });
    await expect(byAdmin(ctx, state, move(7, 3))).rejects.toMatchObject({ code: 40900 });
    for (const to of [1, 2, 30, 99]) {
      // the holder, a co-holder on the node, the initiator, an inactive user
      await expect(byAdmin(ctx, state, move(to))).rejects.toMatchObject({ code: 40001 });
    }
    const done = (await act(state, { type: 'approve', taskId }, 1)).state;
    await expect(byAdmin(ctx, done, move(7))).rejects.toMatchObject({ code: 40900 });
  });
});
