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

  it('repairs a step without approvers with the people named (assignee_ids), logged', async () => {
    const tree = chain(start(), approval('a', users(40)));
    const { ctx, state } = await started(
      tree,
      {},
      testDirectory([{ id: 40, active: false }, { id: 41 }]),
    );
    const { state: next, effects } = await applyAction(
      ctx,
      state,
      { type: 'resume', assigneeIds: [41] },
      admin(),
    );
    expect(next).toMatchObject({ status: 'running', currentNodeId: 'a', path: ['start', 'a'] });
    expect(next.tasks.map((t) => [t.assigneeId, t.status])).toEqual([[41, 'pending']]);
    expect(logs(effects)[0]).toMatchObject({ action: 'resume', details: { assignee_ids: [41] } });
    for (const bad of [[40], [404], [INITIATOR]]) {
      await expect(
        applyAction(ctx, state, { type: 'resume', assigneeIds: bad }, admin()),
      ).rejects.toMatchObject({ code: 40001 });
    }
  });

  it('repairs an undecidable branch node with the branch named (branch_id)', async () => {
    const tree = chain(
      start(),
      branch('b', [
        {
          id: 'x',
          name: 'X',
          condition: { field: 'n', op: 'gt', value: 1 },
          child: approval('xa', users(3)),
        },
        {
          id: 'y',
          name: 'Y',
          condition: { field: 'n', op: 'lt', value: -1 },
          child: approval('ya', users(4)),
        },
      ]),
    );
    const { ctx, state } = await started(tree, { n: 0 });
    expect(state.status).toBe('suspended');
    const { state: next, effects } = await applyAction(
      ctx,
      state,
      { type: 'resume', branchId: 'y' },
      admin(),
    );
    expect(next).toMatchObject({
      status: 'running',
      currentNodeId: 'ya',
      path: ['start', 'b', 'ya'],
    });
    expect(logActions(effects)).toEqual(['resume', 'branch']);
    await expect(
      applyAction(ctx, state, { type: 'resume', branchId: 'nope' }, admin()),
    ).rejects.toMatchObject({ code: 40001 });
    await expect(
      applyAction(ctx, state, { type: 'resume', assigneeIds: [3] }, admin()),
    ).rejects.toMatchObject({ code: 40001 });
  });

  it('repairs the form (form_patch): validated, merged, logged as an edit, then re-evaluated', async () => {
    const tree = chain(
      start(),
      approval('lead', { type: 'dept_leader', source: 'form_field', field: 'dept' }),
    );
    // Department 3 has no leader: the step stops; department 1's leader is user 21.
    const { ctx, state } = await started(tree, { dept: 3 });
    ctx.schema = { fields: [{ key: 'dept', label: 'Department', type: 'number' }] };
    expect(state.status).toBe('suspended');
    const { state: next, effects } = await applyAction(
      ctx,
      state,
      { type: 'resume', formPatch: { dept: 1 } },
      admin(),
    );
    expect(next.form).toEqual({ dept: 1 });
    expect(next.tasks.map((t) => t.assigneeId)).toEqual([21]);
    expect(logs(effects).map((l) => [l.action, l.details])).toEqual([
      ['resume', { form_patch: ['dept'] }],
      ['edit', { changes: [{ field: 'dept', before: 3, after: 1 }] }],
    ]);
    for (const patch of [{ dept: 'x' }, { other: 1 }]) {
      await expect(
        applyAction(ctx, state, { type: 'resume', formPatch: patch }, admin()),
      ).rejects.toMatchObject({ code: 40002 });
    }
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
