import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import {
  INITIATOR,
  NOW,
  SYSTEM,
  approval,
  chain,
  logActions,
  logs,
  pendingOf,
  person,
  start,
  testAbsences,
  testContext,
  testDirectory,
  users,
} from './directory.test-support.js';
import type { Absence, EngineContext, FlowNode, InstanceState, NodeTimeout } from './types.js';

const HOUR = 3_600_000;

/** Departments 10 (leader 40) ← 11 (leader 41) ← 12 (leader 42); user 5 and the initiator in 12. */
const ORG = testDirectory(
  [
    { id: 5, deptId: 12 },
    { id: 6, deptId: 12 },
    { id: 7, deptId: 12 },
    { id: 40, deptId: 10 },
    { id: 41, deptId: 11 },
    { id: 42, deptId: 12 },
    { id: 43, deptId: 11, active: false },
    { id: INITIATOR, deptId: 12 },
  ],
  [
    { id: 10, parentId: null, leaderId: 40 },
    { id: 11, parentId: 10, leaderId: 41 },
    { id: 12, parentId: 11, leaderId: 42 },
  ],
);

async function run(tree: FlowNode, absences: Absence[] = []) {
  const ctx = testContext(tree, ORG, NOW, testAbsences(absences));
  const { state } = await startInstance(ctx, {
    form: {},
    initiatorId: INITIATOR,
    initiatorDeptId: 12,
    initiatorRoleIds: [],
    selectedAssignees: {},
  });
  return { ctx, state };
}

/** The deadline of the task `userId` holds fires at its due time. */
async function fire(ctx: EngineContext, s: InstanceState, userId: number) {
  const task = pendingOf(s.tasks, userId);
  const at = { ...ctx, now: task.dueAt! };
  return applyAction(at, s, { type: 'timeout', taskId: task.id }, SYSTEM);
}

const step = (timeout: NodeTimeout, ...assignees: number[]) =>
  chain(start(), approval('a', users(...assignees), { timeout }), approval('b', users(7)));

describe('timeout: reminders that repeat', () => {
  it('reminds every repeatEveryHours until repeatCount reminders, then no deadline is re-armed', async () => {
    const { ctx, state } = await run(
      step({ hours: 8, action: 'remind', repeatEveryHours: 4, repeatCount: 3 }, 5),
    );
    expect(pendingOf(state.tasks, 5).dueAt).toBe(NOW + 8 * HOUR);
    const one = await fire(ctx, state, 5);
    expect(logs(one.effects)).toEqual([
      expect.objectContaining({ action: 'remind', operatorId: 0, details: { count: 1 } }),
    ]);
    expect(one.effects).toContainEqual({
      type: 'notify',
      kind: 'timeout',
      userIds: [5],
      nodeId: 'a',
    });
    expect(pendingOf(one.state.tasks, 5).dueAt).toBe(NOW + 12 * HOUR);
    const two = await fire(ctx, one.state, 5);
    expect(pendingOf(two.state.tasks, 5).dueAt).toBe(NOW + 16 * HOUR);
    const three = await fire(ctx, two.state, 5);
    expect(logs(three.effects)[0]?.details).toEqual({ count: 3 });
    // The last reminder leaves the deadline as it was: the scanner has handled it.
    expect(pendingOf(three.state.tasks, 5).dueAt).toBe(NOW + 16 * HOUR);
  });

  it('a plain remind reminds once', async () => {
    const { ctx, state } = await run(step({ hours: 2, action: 'remind' }, 5));
    const once = await fire(ctx, state, 5);
    expect(pendingOf(once.state.tasks, 5)).toMatchObject({
      dueAt: NOW + 2 * HOUR,
      timeoutCount: 1,
    });
  });

  it('auto_approve and auto_reject act as the system with comment "timeout"', async () => {
    const approved = await run(step({ hours: 1, action: 'auto_approve' }, 5));
    const a = await fire(approved.ctx, approved.state, 5);
    expect(logActions(a.effects)[0]).toBe('auto_approve');
    expect(pendingOf(a.state.tasks, 7).nodeId).toBe('b');
    const rejected = await run(step({ hours: 1, action: 'auto_reject' }, 5));
    const r = await fire(rejected.ctx, rejected.state, 5);
    expect(r.state.status).toBe('rejected');
  });
});

describe('timeout: escalation up the department tree', () => {
  const escalate = (extra: Partial<NodeTimeout> = {}) =>
    step({ hours: 24, action: 'escalate', repeatEveryHours: 12, ...extra }, 5);

  it('passes the task to the holder\u2019s leader, then one level per period, recording each holder', async () => {
    const { ctx, state } = await run(escalate());
    const one = await fire(ctx, state, 5);
    const held = pendingOf(one.state.tasks, 42);
    expect(held).toMatchObject({ originalAssigneeId: 5, timeoutCount: 1, dueAt: NOW + 36 * HOUR });
    expect(logs(one.effects)).toEqual([
      expect.objectContaining({
        action: 'escalate',
        operatorId: 0,
        details: { from_user_id: 5, to_user_id: 42, level: 1 },
      }),
    ]);
    expect(one.effects).toContainEqual({
      type: 'notify',
      kind: 'todo',
      userIds: [42],
      nodeId: 'a',
    });
    // 42 leads department 12 themself: the next level is 11's leader, then 10's.
    const two = await fire(ctx, one.state, 42);
    expect(logs(two.effects)[0]?.details).toEqual({ from_user_id: 42, to_user_id: 41, level: 2 });
    const three = await fire(ctx, two.state, 41);
    expect(pendingOf(three.state.tasks, 40)).toMatchObject({
      originalAssigneeId: 5,
      timeoutCount: 3,
    });
    // The escalated holder approves as any holder would.
    const done = await applyAction(
      ctx,
      three.state,
      { type: 'approve', taskId: pendingOf(three.state.tasks, 40).id },
      person(40),
    );
    expect(pendingOf(done.state.tasks, 7).nodeId).toBe('b');
  });

  it('at the top of the tree: stay (default) notifies and keeps the holder; auto_* acts', async () => {
    async function toTop(extra: Partial<NodeTimeout>) {
      const { ctx, state } = await run(escalate(extra));
      let s = state;
      for (const holder of [5, 42, 41]) s = (await fire(ctx, s, holder)).state;
      return { ctx, s, last: await fire(ctx, s, 40) };
    }
    const stay = await toTop({});
    expect(logs(stay.last.effects)[0]).toMatchObject({
      action: 'escalate',
      comment: 'top of the tree',
      details: { from_user_id: 40, to_user_id: null, level: 3 },
    });
    expect(pendingOf(stay.last.state.tasks, 40).dueAt).toBe(pendingOf(stay.s.tasks, 40).dueAt);
    const approve = await toTop({ finalAction: 'auto_approve' });
    expect(logActions(approve.last.effects)[0]).toBe('auto_approve');
    const reject = await toTop({ finalAction: 'auto_reject' });
    expect(reject.last.state.status).toBe('rejected');
  });

  it('skips a leader who already holds a task of the step, is inactive or is the initiator', async () => {
    // 42 holds a task of the same step: 5's task goes to 41.
    const { ctx, state } = await run(step({ hours: 1, action: 'escalate' }, 5, 42));
    const escalated = await fire(ctx, state, 5);
    expect(pendingOf(escalated.state.tasks, 41).originalAssigneeId).toBe(5);
    const inactive = testDirectory(
      [
        { id: 5, deptId: 12 },
        { id: 40, deptId: 10 },
        { id: 43, deptId: 11, active: false },
      ],
      [
        { id: 10, parentId: null, leaderId: 40 },
        { id: 11, parentId: 10, leaderId: 43 },
        { id: 12, parentId: 11, leaderId: INITIATOR },
      ],
    );
    const ctx2 = testContext(step({ hours: 1, action: 'escalate' }, 5), inactive);
    const { state: s2 } = await startInstance(ctx2, {
      form: {},
      initiatorId: INITIATOR,
      initiatorDeptId: 12,
      initiatorRoleIds: [],
      selectedAssignees: {},
    });
    const up = await fire(ctx2, s2, 5);
    expect(pendingOf(up.state.tasks, 40).originalAssigneeId).toBe(5);
  });

  it('a leader out of office: the task goes to their stand-in, on their behalf', async () => {
    const until = NOW + 1000 * HOUR;
    const { ctx, state } = await run(escalate(), [{ userId: 42, standInId: 6, until }]);
    const one = await fire(ctx, state, 5);
    expect(pendingOf(one.state.tasks, 6)).toMatchObject({
      onBehalfOfId: 42,
      originalAssigneeId: 5,
    });
    expect(logs(one.effects)[0]?.details).toMatchObject({ to_user_id: 6, on_behalf_of_id: 42 });
  });

  it('a delegated task escalates too: the delegation ends', async () => {
    const { ctx, state } = await run(escalate());
    const taskId = pendingOf(state.tasks, 5).id;
    const delegated = await applyAction(
      ctx,
      state,
      { type: 'delegate', taskId, toUserId: 6 },
      person(5),
    );
    const up = await fire(ctx, delegated.state, 6);
    expect(pendingOf(up.state.tasks, 42)).toMatchObject({ delegatorId: null });
    expect(up.effects).toContainEqual({ type: 'delegation_resolved', taskId });
  });
});

describe('timeout: the initiator\u2019s resubmit deadline', () => {
  const returned = async (action: 'remind' | 'cancel') => {
    const tree = chain(
      { id: 'start', type: 'start', name: 'Submit', resubmitTimeout: { hours: 48, action } },
      approval('a', users(5)),
    ) as FlowNode;
    const { ctx, state } = await run(tree);
    const back = await applyAction(
      ctx,
      state,
      { type: 'return', taskId: pendingOf(state.tasks, 5).id, to: 'initiator', comment: 'fix it' },
      person(5),
    );
    return { ctx, state: back.state };
  };

  it('a resubmit task is due after resubmitTimeout.hours', async () => {
    const { state } = await returned('remind');
    expect(pendingOf(state.tasks, INITIATOR)).toMatchObject({
      kind: 'resubmit',
      dueAt: NOW + 48 * HOUR,
    });
  });

  it('remind: the initiator is reminded once', async () => {
    const { ctx, state } = await returned('remind');
    const { effects, state: after } = await fire(ctx, state, INITIATOR);
    expect(logs(effects)[0]).toMatchObject({ action: 'remind', details: { count: 1 } });
    expect(effects).toContainEqual({
      type: 'notify',
      kind: 'timeout',
      userIds: [INITIATOR],
      nodeId: 'start',
    });
    expect(after.status).toBe('running');
  });

  it('cancel: the request is canceled by the system, comment "timeout"', async () => {
    const { ctx, state } = await returned('cancel');
    const { effects, state: after } = await fire(ctx, state, INITIATOR);
    expect(after.status).toBe('canceled');
    expect(logs(effects)[0]).toMatchObject({ action: 'cancel', operatorId: 0, comment: 'timeout' });
    expect(effects).toContainEqual({ type: 'terminal', status: 'canceled' });
  });
});

describe('timeout: who may fire it', () => {
  it('only the system (40301), and only on a pending task (40900)', async () => {
    const { ctx, state } = await run(step({ hours: 1, action: 'remind' }, 5));
    const taskId = pendingOf(state.tasks, 5).id;
    await expect(
      applyAction(ctx, state, { type: 'timeout', taskId }, person(5)),
    ).rejects.toMatchObject({
      code: 40301,
    });
    const approved = await applyAction(ctx, state, { type: 'approve', taskId }, person(5));
    await expect(
      applyAction(ctx, approved.state, { type: 'timeout', taskId }, SYSTEM),
    ).rejects.toMatchObject({ code: 40900 });
  });
});
