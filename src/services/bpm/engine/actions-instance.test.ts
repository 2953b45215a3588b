import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import {
  SYSTEM,
  admin,
  approval,
  branch,
  chain,
  logActions,
  logs,
  pendingOf,
  person,
  start,
  testContext,
  testDirectory,
  users,
  INITIATOR,
  actAs as as,
  approveBy,
  started,
  threeApprovalLine as line,
} from './directory.test-support.js';

/** The instance-level actions: cancel, terminate, resume. */

describe('cancel', () => {
  it('lets the initiator cancel before anyone acted: open tasks canceled, terminal emitted', async () => {
    const { ctx, state } = await started(line());
    const { state: next, effects } = await as(ctx)(
      state,
      { type: 'cancel', comment: 'not needed' },
      INITIATOR,
    );
    expect(next.status).toBe('canceled');
    expect(next.tasks.every((t) => t.status === 'canceled')).toBe(true);
    expect(logs(effects)[0]).toMatchObject({
      action: 'cancel',
      operatorId: INITIATOR,
      nodeId: 'a',
    });
    expect(effects).toContainEqual({ type: 'terminal', status: 'canceled' });
  });

  it('is refused once a person approved (40900)', async () => {
    const { ctx, state } = await started(line());
    const s = await approveBy(ctx, state, 1);
    await expect(as(ctx)(s, { type: 'cancel' }, INITIATOR)).rejects.toMatchObject({ code: 40900 });
  });

  it('is still allowed after a transfer or a system auto-approval', async () => {
    const { ctx, state } = await started(
      chain(start(), approval('a', users(1)), approval('b', users(2))),
    );
    let s = (
      await as(ctx)(
        state,
        { type: 'transfer', taskId: pendingOf(state.tasks, 1).id, toUserId: 7 },
        1,
      )
    ).state;
    s = (await applyAction(ctx, s, { type: 'approve', taskId: pendingOf(s.tasks, 7).id }, SYSTEM))
      .state;
    expect((await as(ctx)(s, { type: 'cancel' }, INITIATOR)).state.status).toBe('canceled');
  });

  it('is allowed again once the request is back with the initiator (a resubmit task open)', async () => {
    const { ctx, state } = await started(line());
    const s = await approveBy(ctx, state, 1);
    const returned = (
      await as(ctx)(
        s,
        { type: 'return', taskId: pendingOf(s.tasks, 2).id, to: 'initiator', comment: 'fix it' },
        2,
      )
    ).state;
    const { state: next, effects } = await as(ctx)(returned, { type: 'cancel' }, INITIATOR);
    expect(next.status).toBe('canceled');
    expect(next.tasks.find((t) => t.kind === 'resubmit')?.status).toBe('canceled');
    expect(effects).toContainEqual({ type: 'terminal', status: 'canceled' });
  });

  it('works on a suspended instance', async () => {
    const { ctx, state } = await started(chain(start(), approval('a', users(99))));
    expect((await as(ctx)(state, { type: 'cancel' }, INITIATOR)).state.status).toBe('canceled');
  });

  it('is refused to anyone but the initiator (40301)', async () => {
    const { ctx, state } = await started(line());
    await expect(as(ctx)(state, { type: 'cancel' }, 1)).rejects.toMatchObject({ code: 40301 });
  });
});

describe('terminate', () => {
  it.each([
    ['running', users(1)],
    ['suspended', users(99)],
  ])('lets a platform admin terminate a %s instance', async (status, rule) => {
    const { ctx, state } = await started(chain(start(), approval('a', rule)));
    expect(state.status).toBe(status);
    const { state: next, effects } = await applyAction(ctx, state, { type: 'terminate' }, admin());
    expect(next).toMatchObject({ status: 'terminated', suspendReason: null });
    expect(next.tasks.every((t) => t.status === 'canceled')).toBe(true);
    expect(logActions(effects)).toEqual(['terminate']);
    expect(effects).toContainEqual({ type: 'terminal', status: 'terminated' });
  });

  it('is refused to others (40301) and on an ended instance (40900)', async () => {
    const { ctx, state } = await started(line());
    await expect(
      applyAction(ctx, state, { type: 'terminate' }, person(INITIATOR)),
    ).rejects.toMatchObject({ code: 40301 });
    const { state: ended } = await applyAction(ctx, state, { type: 'terminate' }, admin());
    await expect(applyAction(ctx, ended, { type: 'terminate' }, admin())).rejects.toMatchObject({
      code: 40900,
    });
  });
});

describe('resume', () => {
  it('re-evaluates the node where the instance stopped', async () => {
    const tree = chain(start(), approval('a', users(40)));
    const { state } = await started(tree, {}, testDirectory([{ id: 40, active: false }]));
    expect(state.status).toBe('suspended');
    const fixed = testContext(tree, testDirectory([{ id: 40 }]));
    const { state: next, effects } = await applyAction(fixed, state, { type: 'resume' }, admin());
    expect(next).toMatchObject({
      status: 'running',
      suspendReason: null,
      currentNodeId: 'a',
      path: ['start', 'a'],
    });
    expect(logs(effects)[0]).toMatchObject({ action: 'resume', nodeId: 'a' });
  });

  it('suspends again when the node still cannot proceed', async () => {
    const tree = chain(
      start(),
      branch('b', [
        { id: 'x', name: 'X', condition: { field: 'n', op: 'gt', value: 1 }, child: null },
      ]),
    );
    // No branch matches and there is no default: nothing the submitter typed fails.
    const { ctx, state } = await started(tree, { n: 0 });
    const { state: next, effects } = await applyAction(ctx, state, { type: 'resume' }, admin());
    expect(next).toMatchObject({ status: 'suspended', path: ['start', 'b'] });
    expect(next.suspendReason?.code).toBe('condition_failed');
    expect(logActions(effects)).toEqual(['resume', 'suspend']);
  });

  it('is refused to others (40301) and on an instance that is not suspended (40900)', async () => {
    const { ctx, state } = await started(line());
    await expect(applyAction(ctx, state, { type: 'resume' }, person(1))).rejects.toMatchObject({
      code: 40301,
    });
    await expect(applyAction(ctx, state, { type: 'resume' }, admin())).rejects.toMatchObject({
      code: 40900,
    });
  });
});
