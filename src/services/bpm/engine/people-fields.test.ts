import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance, type StartInit } from './advance.js';
import {
  INITIATOR,
  admin,
  approval,
  branch,
  chain,
  pendingOf,
  person,
  start,
  testContext,
  users,
} from './directory.test-support.js';
import { validateForm, validateFormSchema } from './form.js';
import { simulate } from './simulate.js';
import type { FlowNode, FormSchema } from './types.js';
import { validateTree } from './validate-tree.js';

/** `user` and `dept` form fields, the `form_user` rule and `dept_leader` from a `dept` field. */

const schema: FormSchema = {
  fields: [
    { key: 'buyer', label: 'Buyer', type: 'user' },
    { key: 'owner', label: 'Owner', type: 'dept' },
    { key: 'note', label: 'Note', type: 'input' },
  ],
};

const init = (form: StartInit['form']): StartInit => ({
  form,
  initiatorId: INITIATOR,
  initiatorDeptId: 2,
  initiatorRoleIds: [],
  selectedAssignees: {},
});

function contextOf(tree: FlowNode) {
  const ctx = testContext(tree);
  ctx.schema = schema;
  return ctx;
}

/** The refusal's code and `[field, rule]` pairs, or null when the start went ahead. */
async function refusal(tree: FlowNode, form: StartInit['form']) {
  try {
    await startInstance(contextOf(tree), init(form));
    return null;
  } catch (err) {
    const { code, details } = err as {
      code: number;
      details: { fields: { field: string; rule: string }[] };
    };
    return { code, fields: details.fields.map((f) => [f.field, f.rule]) };
  }
}

const byBuyer = () =>
  chain(start(), approval('a', { type: 'form_user', field: 'buyer' }), approval('b', users(3)));

describe('user and dept fields', () => {
  it('hold one positive integer id; anything else is a type problem', () => {
    expect(validateForm(schema, { buyer: 5, owner: 2 })).toEqual({
      ok: true,
      form: { buyer: 5, owner: 2 },
    });
    for (const bad of ['5', 1.5, -1, 0, true, [5]]) {
      const checked = validateForm(schema, { buyer: bad });
      expect(checked).toMatchObject({ ok: false, problems: [{ field: 'buyer', rule: 'type' }] });
    }
    expect(validateFormSchema(schema)).toEqual([]);
  });

  it('a start naming a person who is not an active user, or an unknown department, is refused on the field (40002)', async () => {
    const tree = chain(start(), approval('a', users(1)));
    expect(await refusal(tree, { buyer: 99, owner: 2 })).toEqual({
      code: 40002,
      fields: [['buyer', 'option']],
    });
    expect(await refusal(tree, { buyer: 5000 })).toEqual({
      code: 40002,
      fields: [['buyer', 'option']],
    });
    expect(await refusal(tree, { owner: 77 })).toEqual({
      code: 40002,
      fields: [['owner', 'option']],
    });
    expect(await refusal(tree, { buyer: 5, owner: 3 })).toBeNull();
  });

  it('branch conditions compare them as ids', async () => {
    const tree = chain(
      start(),
      branch('x', [
        {
          id: 'sales',
          name: 'Sales',
          condition: { field: 'owner', op: 'in', value: [2, 3] },
          child: approval('s', users(1)),
        },
        { id: 'other', name: 'Other', default: true, child: approval('o', users(2)) },
      ]),
    );
    const route = await simulate(contextOf(tree), init({ owner: 3 }));
    expect(route.path).toContain('s');
    expect(validateTree(tree, schema)).toEqual([]);
  });
});

describe('the form_user rule', () => {
  it('opens the step for the person the field names', async () => {
    const { state } = await startInstance(contextOf(byBuyer()), init({ buyer: 5 }));
    expect(pendingOf(state.tasks, 5).nodeId).toBe('a');
  });

  it('an empty field, or the initiator without allowInitiator, is refused on the field (40002)', async () => {
    expect(await refusal(byBuyer(), {})).toEqual({ code: 40002, fields: [['buyer', 'required']] });
    expect(await refusal(byBuyer(), { buyer: INITIATOR })).toEqual({
      code: 40002,
      fields: [['buyer', 'option']],
    });
  });

  it('publish: the field must be a declared user field', () => {
    const on = (field: string) =>
      validateTree(chain(start(), approval('a', { type: 'form_user', field })), schema).map((p) => [
        p.field,
        p.rule,
      ]);
    expect(on('buyer')).toEqual([]);
    expect(on('owner')).toEqual([['node_tree.a', 'type']]);
    expect(on('ghost')).toEqual([['node_tree.a', 'option']]);
  });
});

describe('dept_leader from a dept field', () => {
  const tree = () =>
    chain(start(), approval('a', { type: 'dept_leader', source: 'form_field', field: 'owner' }));

  it('takes the leader of the department the form names', async () => {
    // Department 1 is led by 21 (directory.test-support.ts).
    const { state } = await startInstance(contextOf(tree()), init({ owner: 1 }));
    expect(pendingOf(state.tasks, 21).nodeId).toBe('a');
    expect(validateTree(tree(), schema)).toEqual([]);
  });

  it('publish refuses a field that is neither a department nor a number', () => {
    const bad = chain(
      start(),
      approval('a', { type: 'dept_leader', source: 'form_field', field: 'buyer' }),
    );
    expect(validateTree(bad, schema).map((p) => p.rule)).toEqual(['type']);
  });
});

describe('edits and repairs of user fields are checked against the directory', () => {
  it('an approver may not set an editable user field to someone inactive (40002)', async () => {
    const tree = chain(start(), approval('a', users(1), { editableFields: ['buyer'] }));
    const ctx = contextOf(tree);
    const { state } = await startInstance(ctx, init({ buyer: 5 }));
    const taskId = pendingOf(state.tasks, 1).id;
    await expect(
      applyAction(ctx, state, { type: 'approve', taskId, form: { buyer: 99 } }, person(1)),
    ).rejects.toMatchObject({
      code: 40002,
      details: { fields: [{ field: 'buyer', rule: 'option' }] },
    });
    const ok = await applyAction(
      ctx,
      state,
      { type: 'approve', taskId, form: { buyer: 6 } },
      person(1),
    );
    expect(ok.state.form.buyer).toBe(6);
  });

  it('a resume repair naming an unknown department is refused (40002)', async () => {
    // Department 3 has no leader: the instance suspends, and the repair must name a real one.
    const tree = chain(
      start(),
      approval('a', { type: 'dept_leader', source: 'form_field', field: 'owner' }),
    );
    const ctx = contextOf(tree);
    const { state } = await startInstance(ctx, init({ owner: 3 }));
    expect(state.status).toBe('suspended');
    await expect(
      applyAction(ctx, state, { type: 'resume', formPatch: { owner: 404 } }, admin()),
    ).rejects.toMatchObject({ code: 40002 });
    const resumed = await applyAction(
      ctx,
      state,
      { type: 'resume', formPatch: { owner: 2 } },
      admin(),
    );
    expect(pendingOf(resumed.state.tasks, 22).nodeId).toBe('a');
  });
});
