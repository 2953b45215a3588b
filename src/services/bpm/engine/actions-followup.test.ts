import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import {
  INITIATOR,
  approval,
  chain,
  logActions,
  logs,
  pendingOf,
  person,
  start,
  started,
  users,
} from './directory.test-support.js';

const HOUR = 3_600_000;

describe('urge', () => {
  it('notifies the pending approvers once, and again only after an hour', async () => {
    const { ctx, state } = await started(chain(start(), approval('a', users(1, 2))));
    const first = await applyAction(ctx, state, { type: 'urge' }, person(INITIATOR));
    expect(logActions(first.effects)).toEqual(['urge']);
    expect(first.effects).toContainEqual({
      type: 'notify',
      kind: 'urge',
      userIds: [1, 2],
      nodeId: 'a',
    });
    expect(first.state.tasks.every((t) => t.urgedAt === ctx.now)).toBe(true);
    await expect(
      applyAction(ctx, first.state, { type: 'urge' }, person(INITIATOR)),
    ).rejects.toMatchObject({
      code: 40900,
    });
    const later = { ...ctx, now: ctx.now + HOUR };
    const again = await applyAction(later, first.state, { type: 'urge' }, person(INITIATOR));
    expect(again.state.tasks.every((t) => t.urgedAt === later.now)).toBe(true);
  });

  it('is refused to anyone but the initiator (40301)', async () => {
    const { ctx, state } = await started(chain(start(), approval('a', users(1))));
    await expect(applyAction(ctx, state, { type: 'urge' }, person(1))).rejects.toMatchObject({
      code: 40301,
    });
  });
});

describe('withdraw', () => {
  const twoNodes = () => chain(start(), approval('a', users(1)), approval('b', users(2)));

  it('reopens the approver\u2019s task and cancels the next node\u2019s', async () => {
    const { ctx, state } = await started(twoNodes());
    const taskId = pendingOf(state.tasks, 1).id;
    const approved = await applyAction(ctx, state, { type: 'approve', taskId }, person(1));
    const { state: s, effects } = await applyAction(
      ctx,
      approved.state,
      { type: 'withdraw', taskId },
      person(1),
    );
    expect(s.tasks.find((t) => t.id === taskId)).toMatchObject({
      status: 'pending',
      result: null,
      finishedAt: null,
    });
    expect(s.tasks.filter((t) => t.nodeId === 'b').map((t) => t.status)).toEqual(['canceled']);
    expect(s).toMatchObject({ currentNodeId: 'a', path: ['start', 'a'] });
    expect(logActions(effects)).toEqual(['withdraw']);
  });

  it('re-arms the node\u2019s timeout from the withdrawal, not the old deadline', async () => {
    const tree = chain(
      start(),
      approval('a', users(1), { timeout: { hours: 2, action: 'auto_reject' } }),
      approval('b', users(2)),
    );
    const { ctx, state } = await started(tree);
    const task = pendingOf(state.tasks, 1);
    expect(task.dueAt).toBe(ctx.now + 2 * HOUR);
    const approved = await applyAction(ctx, state, { type: 'approve', taskId: task.id }, person(1));
    // Withdrawn three hours later: the first deadline has passed, the new one is two hours away.
    const later = { ...ctx, now: ctx.now + 3 * HOUR };
    const { state: s } = await applyAction(
      later,
      approved.state,
      { type: 'withdraw', taskId: task.id },
      person(1),
    );
    expect(s.tasks.find((t) => t.id === task.id)).toMatchObject({
      status: 'pending',
      dueAt: later.now + 2 * HOUR,
    });
  });

  it('reopens the co-holders an `or` approval closed, and reverts the form edits it made', async () => {
    const tree = chain(
      start(),
      approval('a', users(1, 2, 3), { mode: 'or' }),
      approval('b', users(4)),
    );
    const { ctx, state } = await started(tree, { note: 'before' });
    const taskId = pendingOf(state.tasks, 1).id;
    const approved = await applyAction(ctx, state, { type: 'approve', taskId }, person(1));
    approved.state.form.note = 'after';
    const later = { ...ctx, now: ctx.now + HOUR };
    const { state: s, effects } = await applyAction(
      later,
      approved.state,
      { type: 'withdraw', taskId, edits: [{ field: 'note', before: 'before', after: 'after' }] },
      person(1),
    );
    expect(s.tasks.filter((t) => t.nodeId === 'a').map((t) => [t.assigneeId, t.status])).toEqual([
      [1, 'pending'],
      [2, 'pending'],
      [3, 'pending'],
    ]);
    expect(s.form).toEqual({ note: 'before' });
    expect(logs(effects).map((l) => [l.action, l.details ?? null])).toEqual([
      ['withdraw', null],
      ['edit', { changes: [{ field: 'note', before: 'after', after: 'before' }] }],
    ]);
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [2, 3], nodeId: 'a' });
  });

  it('is refused after the next node acted (40900), and to others (40301)', async () => {
    const tree = chain(
      start(),
      approval('a', users(1)),
      approval('b', users(2)),
      approval('c', users(3)),
    );
    const { ctx, state } = await started(tree);
    const taskId = pendingOf(state.tasks, 1).id;
    const s1 = (await applyAction(ctx, state, { type: 'approve', taskId }, person(1))).state;
    await expect(
      applyAction(ctx, s1, { type: 'withdraw', taskId }, person(2)),
    ).rejects.toMatchObject({ code: 40301 });
    const s2 = (
      await applyAction(ctx, s1, { type: 'approve', taskId: pendingOf(s1.tasks, 2).id }, person(2))
    ).state;
    await expect(
      applyAction(ctx, s2, { type: 'withdraw', taskId }, person(1)),
    ).rejects.toMatchObject({ code: 40900 });
  });

  it('is refused when the approval ended the instance', async () => {
    const { ctx, state } = await started(chain(start(), approval('a', users(1))));
    const taskId = pendingOf(state.tasks, 1).id;
    const s = (await applyAction(ctx, state, { type: 'approve', taskId }, person(1))).state;
    expect(s.status).toBe('approved');
    await expect(
      applyAction(ctx, s, { type: 'withdraw', taskId }, person(1)),
    ).rejects.toMatchObject({ code: 40900 });
  });
});

describe('reduce-sign', () => {
  it('cancels a pending added approver; the node then completes without them', async () => {
    const { ctx, state } = await started(chain(start(), approval('a', users(1), { mode: 'and' })));
    const taskId = pendingOf(state.tasks, 1).id;
    const added = (
      await applyAction(ctx, state, { type: 'add_sign', taskId, userIds: [2, 3] }, person(1))
    ).state;
    const { state: s, effects } = await applyAction(
      ctx,
      added,
      { type: 'reduce_sign', taskId, userIds: [2] },
      person(1),
    );
    expect(s.tasks.filter((t) => t.addedBySign).map((t) => [t.assigneeId, t.status])).toEqual([
      [2, 'canceled'],
      [3, 'pending'],
    ]);
    expect(logActions(effects)).toEqual(['reduce_sign']);
    const after = await applyAction(ctx, s, { type: 'approve', taskId }, person(1));
    const last = pendingOf(after.state.tasks, 3).id;
    const done = await applyAction(ctx, after.state, { type: 'approve', taskId: last }, person(3));
    expect(done.state.status).toBe('approved');
  });

  it('refuses a user who is not a pending added approver (40001)', async () => {
    const { ctx, state } = await started(
      chain(start(), approval('a', users(1, 2), { mode: 'and' })),
    );
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(
      applyAction(ctx, state, { type: 'reduce_sign', taskId, userIds: [2] }, person(1)),
    ).rejects.toMatchObject({ code: 40001 });
  });
});
