import { describe, expect, it } from 'vitest';
import {
  approval,
  branch,
  chain,
  logActions,
  logs,
  pendingOf,
  start,
  tasksOf,
  users,
  INITIATOR,
  actAs as as,
  back,
  approveBy,
  started,
  threeApprovalLine as line,
  SYSTEM,
} from './directory.test-support.js';
import { applyAction } from './actions.js';
import { returnPreviousTarget } from './available.js';

/** Return to the initiator, resubmit, and the path-aware return to the previous node. */

describe('return to the initiator and resubmit', () => {
  it('cancels the node tasks and opens a resubmit task', async () => {
    const { ctx, state } = await started(line());
    const s = await approveBy(ctx, state, 1);
    const taskId = pendingOf(s.tasks, 2).id;
    const { state: next, effects } = await as(ctx)(
      s,
      { type: 'return', taskId, to: 'initiator', comment: 'fix it' },
      2,
    );
    expect(tasksOf(next.tasks, 'b').map((t) => [t.status, t.result])).toEqual([
      ['done', 'returned'],
      ['canceled', null],
    ]);
    expect(next.tasks.at(-1)).toMatchObject({
      kind: 'resubmit',
      assigneeId: INITIATOR,
      status: 'pending',
    });
    expect(logActions(effects)).toEqual(['return_initiator']);
  });

  it('requires a comment (40003)', async () => {
    const { ctx, state } = await started(line());
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(
      as(ctx)(state, { type: 'return', taskId, to: 'initiator', comment: ' ' }, 1),
    ).rejects.toMatchObject({
      code: 40003,
    });
  });

  it('resubmit stores the form, raises the round, clears the path and routes again from the start', async () => {
    const tree = chain(
      start(),
      branch('amount', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 100 },
          child: approval('cfo', users(5)),
        },
        { id: 'small', name: 'Small', default: true, child: approval('lead', users(4)) },
      ]),
    );
    const { ctx, state } = await started(tree, { amount: 500 });
    const taskId = pendingOf(state.tasks, 5).id;
    const { state: returned } = await as(ctx)(
      state,
      { type: 'return', taskId, to: 'initiator', comment: 'too much' },
      5,
    );
    const { state: next, effects } = await as(ctx)(
      returned,
      { type: 'resubmit', form: { amount: 50 } },
      INITIATOR,
    );
    expect(next).toMatchObject({
      form: { amount: 50 },
      round: 2,
      path: ['start', 'amount', 'lead'],
      currentNodeId: 'lead',
    });
    expect(tasksOf(next.tasks, 'start')[0]).toMatchObject({ status: 'done', kind: 'resubmit' });
    expect(tasksOf(next.tasks, 'lead')[0]?.round).toBe(2);
    expect(logs(effects)[0]).toMatchObject({ action: 'resubmit', operatorId: INITIATOR, round: 1 });
  });

  it('refuses resubmit by anyone but the initiator (40301) and without a resubmit task (40900)', async () => {
    const { ctx, state } = await started(line());
    await expect(as(ctx)(state, { type: 'resubmit', form: {} }, 1)).rejects.toMatchObject({
      code: 40301,
    });
    await expect(as(ctx)(state, { type: 'resubmit', form: {} }, INITIATOR)).rejects.toMatchObject({
      code: 40900,
    });
  });
});

describe('return to the previous node', () => {
  it('re-enters the nearest earlier node a person approved, in the next round', async () => {
    const { ctx, state } = await started(line());
    let s = await approveBy(ctx, state, 1);
    s = await approveBy(ctx, s, 2);
    const taskId = pendingOf(s.tasks, 4).id;
    const { state: next, effects } = await as(ctx)(
      s,
      { type: 'return', taskId, to: 'previous', comment: 'again' },
      4,
    );
    expect(next).toMatchObject({ round: 2, currentNodeId: 'a', path: ['start', 'a'] });
    expect(tasksOf(next.tasks, 'b').map((t) => t.status)).toEqual(['done', 'done']);
    expect(tasksOf(next.tasks, 'a', 2).map((t) => [t.assigneeId, t.status])).toEqual([
      [1, 'pending'],
    ]);
    expect(logs(effects)[0]).toMatchObject({ action: 'return_previous', nodeId: 'b', round: 1 });
  });

  it('cancels the current node tasks and opens the later nodes in the new round', async () => {
    const { ctx, state } = await started(line());
    let s = await approveBy(ctx, await approveBy(ctx, await approveBy(ctx, state, 1), 2), 4);
    const taskId = pendingOf(s.tasks, 3).id;
    s = (await as(ctx)(s, { type: 'return', taskId, to: 'previous', comment: 'again' }, 3)).state;
    expect(s).toMatchObject({ currentNodeId: 'b', round: 2, path: ['start', 'a', 'b'] });
    s = await approveBy(ctx, await approveBy(ctx, s, 2), 4);
    expect(tasksOf(s.tasks, 'c', 2)).toHaveLength(1);
  });

  it('is refused without allowBackPrev on the current node (40900)', async () => {
    const { ctx, state } = await started(
      chain(start(), approval('a', users(1)), approval('b', users(2))),
    );
    const s = await approveBy(ctx, state, 1);
    const taskId = pendingOf(s.tasks, 2).id;
    await expect(
      as(ctx)(s, { type: 'return', taskId, to: 'previous', comment: 'x' }, 2),
    ).rejects.toMatchObject({
      code: 40900,
    });
  });

  it('does not return to an auto-passed node, nor past the start (40900)', async () => {
    const tree = chain(
      start(),
      approval('a', users(99), { emptyAssignee: { strategy: 'auto_pass' } }),
      approval('b', users(2), back),
    );
    const { ctx, state } = await started(tree);
    const taskId = pendingOf(state.tasks, 2).id;
    await expect(
      as(ctx)(state, { type: 'return', taskId, to: 'previous', comment: 'x' }, 2),
    ).rejects.toMatchObject({
      code: 40900,
    });
  });

  it('skips an auto-passed node to reach the one a person approved', async () => {
    const skip = approval('x', users(99), { emptyAssignee: { strategy: 'auto_pass' } });
    const { ctx, state } = await started(
      chain(start(), approval('a', users(1)), skip, approval('c', users(3), back)),
    );
    const s = await approveBy(ctx, state, 1);
    const taskId = pendingOf(s.tasks, 3).id;
    const { state: next } = await as(ctx)(
      s,
      { type: 'return', taskId, to: 'previous', comment: 'x' },
      3,
    );
    expect(next.currentNodeId).toBe('a');
  });

  it('passes over a node a person approved earlier that the current path no longer takes', async () => {
    const tree = chain(
      start(),
      approval('a', users(1), { editableFields: ['amount'] }),
      branch('amount', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 100 },
          child: approval('p', users(4), back),
        },
        { id: 'small', name: 'Small', default: true, child: null },
      ]),
      approval('c', users(3), back),
    );
    const started_ = await started(tree, { amount: 500 });
    const ctx = {
      ...started_.ctx,
      schema: { fields: [{ key: 'amount', label: 'Amount', type: 'number' as const }] },
    };
    const { state } = started_;
    let s = await approveBy(ctx, await approveBy(ctx, state, 1), 4);
    // c sends it back to p, which sends it back to a: p keeps its round-1 approval.
    s = (
      await as(ctx)(
        s,
        { type: 'return', taskId: pendingOf(s.tasks, 3).id, to: 'previous', comment: 'x' },
        3,
      )
    ).state;
    expect(s.currentNodeId).toBe('p');
    s = (
      await as(ctx)(
        s,
        { type: 'return', taskId: pendingOf(s.tasks, 4).id, to: 'previous', comment: 'x' },
        4,
      )
    ).state;
    // a's approver lowers the amount: the route now skips p.
    const aTask = pendingOf(s.tasks, 1).id;
    s = (await as(ctx)(s, { type: 'approve', taskId: aTask, form: { amount: 5 } }, 1)).state;
    expect(s.path).toEqual(['start', 'a', 'amount', 'c']);
    const taskId = pendingOf(s.tasks, 3).id;
    const { state: next } = await as(ctx)(
      s,
      { type: 'return', taskId, to: 'previous', comment: 'x' },
      3,
    );
    expect(next).toMatchObject({ currentNodeId: 'a', round: 4 });
  });

  it('only goes to nodes on the path actually taken, since the last resubmit', async () => {
    const tree = chain(
      start(),
      approval(
        'a',
        { type: 'dept_leader', source: 'form_field', field: 'dept' },
        { emptyAssignee: { strategy: 'auto_pass' } },
      ),
      branch('amount', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 100 },
          child: approval('p', users(4)),
        },
        { id: 'small', name: 'Small', default: true, child: null },
      ]),
      approval('c', users(3), back),
    );
    // Round 1: a (leader 22 of dept 2) and p approve; c sends it back to the initiator.
    const { ctx, state } = await started(tree, { amount: 500, dept: 2 });
    let s = await approveBy(ctx, await approveBy(ctx, state, 22), 4);
    s = (
      await as(ctx)(
        s,
        { type: 'return', taskId: pendingOf(s.tasks, 3).id, to: 'initiator', comment: 'x' },
        3,
      )
    ).state;
    // Round 2: department 3 has no leader, so a auto-passes; the small branch skips p.
    s = (await as(ctx)(s, { type: 'resubmit', form: { amount: 5, dept: 3 } }, INITIATOR)).state;
    expect(s.path).toEqual(['start', 'a', 'amount', 'c']);
    const taskId = pendingOf(s.tasks, 3).id;
    await expect(
      as(ctx)(s, { type: 'return', taskId, to: 'previous', comment: 'x' }, 3),
    ).rejects.toMatchObject({
      code: 40900,
    });
  });
});

describe('return to the previous node after a timeout approval', () => {
  it('skips a node a person approved once but the system approved when it was last entered', async () => {
    const tree = chain(start(), approval('a', users(1)), approval('c', users(3), back));
    const { ctx, state } = await started(tree);
    let s = await approveBy(ctx, state, 1);
    s = (
      await as(ctx)(
        s,
        { type: 'return', taskId: pendingOf(s.tasks, 3).id, to: 'previous', comment: 'x' },
        3,
      )
    ).state;
    expect(s).toMatchObject({ currentNodeId: 'a', round: 2 });
    const timedOut = pendingOf(s.tasks, 1).id;
    s = (
      await applyAction(ctx, s, { type: 'approve', taskId: timedOut, comment: 'timeout' }, SYSTEM)
    ).state;
    const atC = pendingOf(s.tasks, 3);
    expect(atC.round).toBe(2);
    expect(returnPreviousTarget(ctx.tree, s, atC)).toBeNull();
    await expect(
      as(ctx)(s, { type: 'return', taskId: atC.id, to: 'previous', comment: 'x' }, 3),
    ).rejects.toMatchObject({ code: 40900 });
  });
});
