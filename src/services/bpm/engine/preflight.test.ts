import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance, type StartInit } from './advance.js';
import {
  INITIATOR,
  approval,
  branch,
  chain,
  pendingOf,
  person,
  start,
  testContext,
  users,
} from './directory.test-support.js';
import type { FlowNode } from './types.js';

/** BPM.md "Pre-flight at submission": what the submitter can correct is refused at once. */

const init = (over: Partial<StartInit> = {}): StartInit => ({
  form: {},
  initiatorId: INITIATOR,
  initiatorDeptId: 2,
  initiatorRoleIds: [],
  selectedAssignees: {},
  ...over,
});

/** The refusal's code and `[field, rule]` pairs, or null when the start went ahead. */
async function refusal(tree: FlowNode, over: Partial<StartInit> = {}) {
  const ctx = testContext(tree);
  ctx.schema = { fields: [{ key: 'dept', label: 'Department', type: 'number' }] };
  try {
    await startInstance(ctx, init(over));
    return null;
  } catch (err) {
    const { code, details } = err as {
      code: number;
      details: { fields: { field: string; rule: string }[] };
    };
    return { code, fields: details.fields.map((f) => [f.field, f.rule]) };
  }
}

const chosen = chain(start(), approval('pick', { type: 'initiator_selected' }));

describe('pre-flight: steps whose approvers the initiator selects', () => {
  it('refuses a missing or empty selection (40001 on selected_assignees.<node>)', async () => {
    const expected = { code: 40001, fields: [['selected_assignees.pick', 'required']] };
    expect(await refusal(chosen)).toEqual(expected);
    expect(await refusal(chosen, { selectedAssignees: { pick: [] } })).toEqual(expected);
  });

  it('refuses unknown and inactive users, each named', async () => {
    expect(await refusal(chosen, { selectedAssignees: { pick: [4, 404, 99] } })).toEqual({
      code: 40001,
      fields: [
        ['selected_assignees.pick', 'option'],
        ['selected_assignees.pick', 'option'],
      ],
    });
  });

  it('refuses the initiator selecting themselves, unless the step allows the initiator', async () => {
    expect(await refusal(chosen, { selectedAssignees: { pick: [INITIATOR] } })).toEqual({
      code: 40001,
      fields: [['selected_assignees.pick', 'option']],
    });
    const allowed = chain(
      start(),
      approval('pick', { type: 'initiator_selected' }, { allowInitiator: true }),
    );
    expect(await refusal(allowed, { selectedAssignees: { pick: [INITIATOR] } })).toBeNull();
  });

  it('refuses a selection for a step that selects nobody, or for no step at all', async () => {
    const tree = chain(
      start(),
      approval('fixed', users(1)),
      approval('pick', { type: 'initiator_selected' }),
    );
    expect(
      await refusal(tree, { selectedAssignees: { pick: [4], fixed: [5], nowhere: [6] } }),
    ).toEqual({
      code: 40001,
      fields: [
        ['selected_assignees.fixed', 'option'],
        ['selected_assignees.nowhere', 'option'],
      ],
    });
  });

  it('lets a usable selection through, the tasks opening for the people chosen', async () => {
    const ctx = testContext(chosen);
    const { state } = await startInstance(ctx, init({ selectedAssignees: { pick: [4, 5] } }));
    expect(state.status).toBe('running');
    expect(state.tasks.map((t) => t.assigneeId)).toEqual([4, 5]);
  });

  it('checks only the steps on the route the form takes', async () => {
    const tree = chain(
      start(),
      branch('b', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'n', op: 'gt', value: 10 },
          child: approval('pick', { type: 'initiator_selected' }),
        },
        { id: 'small', name: 'Small', default: true, child: approval('fixed', users(1)) },
      ]),
    );
    expect(await refusal(tree, { form: { n: 1 } })).toBeNull();
    expect(await refusal(tree, { form: { n: 11 } })).toEqual({
      code: 40001,
      fields: [['selected_assignees.pick', 'required']],
    });
  });
});

describe('pre-flight: a department read from the form', () => {
  const fromForm = chain(
    start(),
    approval('lead', { type: 'dept_leader', source: 'form_field', field: 'dept' }),
  );

  it('refuses an empty department field (40002 on the field)', async () => {
    expect(await refusal(fromForm)).toEqual({ code: 40002, fields: [['dept', 'required']] });
  });

  it('refuses a department that does not exist', async () => {
    expect(await refusal(fromForm, { form: { dept: 404 } })).toEqual({
      code: 40002,
      fields: [['dept', 'option']],
    });
  });

  it('leaves a department without a leader to the step\u2019s strategy (the submitter cannot fix it)', async () => {
    const ctx = testContext(fromForm);
    const { state } = await startInstance(ctx, init({ form: { dept: 3 } }));
    expect(state.status).toBe('suspended');
    expect(state.suspendReason?.code).toBe('empty_assignee');
  });
});

describe('pre-flight: conditions', () => {
  it('reports a form problem together with a selection problem, as a form error (40002)', async () => {
    const tree = chain(
      start(),
      approval('pick', { type: 'initiator_selected' }),
      branch('b', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 1000 },
          child: null,
        },
        { id: 'small', name: 'Small', default: true, child: null },
      ]),
    );
    expect(await refusal(tree)).toEqual({
      code: 40002,
      fields: [
        ['amount', 'required'],
        ['selected_assignees.pick', 'required'],
      ],
    });
  });

  it('refuses a resubmit whose new form cannot decide the route, changing nothing', async () => {
    const tree = chain(
      start(),
      approval('first', users(1), { onReject: 'initiator' }),
      branch('b', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 1000 },
          child: approval('cfo', users(5)),
        },
        { id: 'small', name: 'Small', default: true, child: null },
      ]),
    );
    const ctx = testContext(tree);
    const { state } = await startInstance(ctx, init({ form: { amount: 5 } }));
    const rejected = await applyAction(
      ctx,
      state,
      { type: 'reject', taskId: pendingOf(state.tasks, 1).id, comment: 'no' },
      person(1),
    );
    const refused = await applyAction(
      ctx,
      rejected.state,
      { type: 'resubmit', form: { amount: 'lots' } },
      person(INITIATOR),
    ).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 40002 });
    expect(rejected.state.form).toEqual({ amount: 5 });
    expect(pendingOf(rejected.state.tasks, INITIATOR).kind).toBe('resubmit');
  });
});
