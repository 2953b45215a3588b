import { describe, expect, it } from 'vitest';
import type { FormSchema } from './types.js';
import { MAX_CONDITION_DEPTH, MAX_TREE_DEPTH, validateTree } from './validate-tree.js';

const schema: FormSchema = {
  fields: [
    { key: 'title', label: 'Title', type: 'input' },
    { key: 'reason', label: 'Reason', type: 'textarea' },
    { key: 'days', label: 'Days', type: 'number' },
    { key: 'amount', label: 'Amount', type: 'amount' },
    { key: 'kind', label: 'Kind', type: 'select', options: ['Annual', 'Sick'] },
    { key: 'level', label: 'Level', type: 'radio', options: ['low', 'high'] },
    { key: 'day', label: 'Day', type: 'date' },
    { key: 'urgent', label: 'Urgent', type: 'switch' },
    { key: 'salary', label: 'Salary', type: 'amount' },
    { key: 'dept', label: 'Department', type: 'number' },
  ],
};

/** BPM.md's example tree. */
function exampleTree(): Record<string, any> {
  return {
    id: 'start',
    type: 'start',
    name: 'Submit',
    hiddenFields: [],
    child: {
      id: 'leader',
      type: 'approval',
      name: 'Team leader',
      assignee: { type: 'dept_leader', source: 'initiator' },
      mode: 'or',
      allowBackPrev: false,
      onReject: 'terminate',
      timeout: { hours: 24, action: 'remind' },
      emptyAssignee: { strategy: 'fallback_users', userIds: [1] },
      hiddenFields: ['salary'],
      child: {
        id: 'amount_check',
        type: 'branch',
        name: 'By amount',
        branches: [
          {
            id: 'big',
            name: 'Over 10 000',
            condition: { field: 'amount', op: 'gt', value: 1000000 },
            child: {
              id: 'cfo',
              type: 'approval',
              name: 'CFO',
              assignee: { type: 'roles', roleIds: [3] },
              mode: 'and',
            },
          },
          { id: 'other', name: 'Otherwise', default: true, child: null },
        ],
        child: {
          id: 'notify_hr',
          type: 'cc',
          name: 'HR copy',
          assignee: { type: 'users', userIds: [7] },
          child: null,
        },
      },
    },
  };
}

/** A start node followed by `child`. */
function after(child: Record<string, unknown>): Record<string, unknown> {
  return { id: 'start', type: 'start', name: 'Submit', child };
}

function approval(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'a1',
    type: 'approval',
    name: 'Approve',
    assignee: { type: 'users', userIds: [1] },
    mode: 'and',
    ...extra,
  };
}

/** A branch node whose first branch carries `condition`. */
function branchOn(condition: unknown): Record<string, unknown> {
  return after({
    id: 'b',
    type: 'branch',
    name: 'Route',
    branches: [
      { id: 'yes', name: 'Yes', condition, child: approval() },
      { id: 'no', name: 'No', default: true, child: null },
    ],
  });
}

const rules = (tree: unknown) => validateTree(tree, schema).map((p) => [p.field, p.rule]);

describe('validateTree: a sound tree', () => {
  it("accepts BPM.md's example with zero problems", () => {
    expect(validateTree(exampleTree(), schema)).toEqual([]);
  });

  it('accepts a big tree using every node attribute and condition form', () => {
    const tree = after({
      id: 'pick',
      type: 'approval',
      name: 'Chosen approver',
      assignee: { type: 'initiator_selected' },
      mode: 'sequential',
      allowBackPrev: true,
      onReject: 'initiator',
      timeout: { hours: 0.5, action: 'auto_approve' },
      emptyAssignee: { strategy: 'suspend' },
      child: {
        id: 'route',
        type: 'branch',
        name: 'Route',
        branches: [
          {
            id: 'r1',
            name: 'Nested',
            condition: {
              all: [
                { field: 'amount', op: 'gte', value: 0 },
                {
                  any: [
                    { field: 'kind', op: 'eq', value: 'Sick' },
                    { field: 'urgent', op: 'eq', value: true },
                  ],
                },
                { field: 'day', op: 'lt', value: '2026-12-31' },
                { field: 'title', op: 'contains', value: 'trip' },
                { field: 'initiator.role_ids', op: 'contains', value: 4 },
                { field: 'initiator.dept_id', op: 'in', value: [1, 2] },
                { field: 'level', op: 'not_in', value: ['low'] },
                { field: 'reason', op: 'not_empty' },
                { field: 'days', op: 'lte', value: 2.5 },
                { field: 'initiator.role_ids', op: 'in', value: [1, 2] },
                { field: 'salary', op: 'empty', value: null },
              ],
            },
            child: {
              id: 'inner',
              type: 'branch',
              name: 'Inner',
              branches: [
                {
                  id: 'i1',
                  name: 'By dept',
                  condition: { field: 'initiator.dept_id', op: 'ne', value: 9 },
                  child: approval({
                    id: 'dl',
                    assignee: {
                      type: 'dept_leader',
                      source: 'form_field',
                      field: 'dept',
                      level: 2,
                    },
                    timeout: { hours: 48, action: 'auto_reject' },
                    emptyAssignee: { strategy: 'auto_pass' },
                  }),
                },
                {
                  id: 'i2',
                  name: 'Else',
                  condition: { field: 'urgent', op: 'ne', value: false },
                  child: null,
                },
              ],
              child: null,
            },
          },
          {
            id: 'r2',
            name: 'Default',
            default: false,
            condition: { field: 'days', op: 'gt', value: 3 },
          },
          {
            id: 'r3',
            name: 'Otherwise',
            default: true,
            child: {
              id: 'cc2',
              type: 'cc',
              name: 'Copy',
              assignee: { type: 'roles', roleIds: [2] },
            },
          },
        ],
        child: approval({
          id: 'final',
          mode: 'or',
          hiddenFields: ['salary', 'reason'],
          extraKey: 1,
        }),
      },
    });
    expect(validateTree(tree, schema)).toEqual([]);
  });

  it('accepts a lone start node', () => {
    expect(validateTree({ id: 's', type: 'start', name: 'Start' }, schema)).toEqual([]);
  });
});

describe('validateTree: structure', () => {
  it('refuses a tree that is not an object', () => {
    expect(rules(null)).toEqual([['node_tree', 'type']]);
    expect(rules([])).toEqual([['node_tree', 'type']]);
  });

  it('refuses a root that is not a start node', () => {
    expect(rules(approval())).toEqual([['node_tree.a1', 'format']]);
  });

  it('refuses a start node anywhere but the root', () => {
    const tree = after({ id: 'again', type: 'start', name: 'Again' });
    const problems = validateTree(tree, schema);
    expect(problems).toEqual([
      {
        field: 'node_tree.again',
        rule: 'format',
        message: expect.stringContaining('node "again"'),
      },
    ]);
  });

  it('refuses a start node inside a branch', () => {
    const tree = branchOn({ field: 'days', op: 'gt', value: 1 });
    (tree.child as any).branches[1].child = { id: 's2', type: 'start', name: 'S' };
    expect(rules(tree)).toEqual([['node_tree.s2', 'format']]);
  });

  it('refuses a child that is not an object, naming where it is', () => {
    const problems = validateTree(after(approval({ child: 'x' })), schema);
    expect(problems).toEqual([
      {
        field: 'node_tree',
        rule: 'type',
        message: expect.stringContaining('node_tree.child.child'),
      },
    ]);
  });

  it('refuses missing, malformed and too long ids', () => {
    expect(rules(after(approval({ id: undefined })))).toEqual([['node_tree', 'required']]);
    expect(rules(after(approval({ id: 5 })))).toEqual([['node_tree', 'type']]);
    expect(rules(after(approval({ id: 'a b' })))).toEqual([['node_tree.a b', 'format']]);
    expect(rules(after(approval({ id: 'x'.repeat(65) })))).toEqual([
      [`node_tree.${'x'.repeat(65)}`, 'format'],
    ]);
    expect(rules(after(approval({ id: 'A-z_09' })))).toEqual([]);
  });

  it('names the location of a node without an id in the message', () => {
    const [p] = validateTree(after(approval({ id: undefined })), schema);
    expect(p?.message).toContain('node_tree.child');
  });

  it('refuses a duplicate id, also between a node and a branch', () => {
    expect(rules(after(approval({ id: 'start' })))).toEqual([['node_tree.start', 'format']]);
    const tree = branchOn({ field: 'days', op: 'gt', value: 1 });
    (tree.child as any).branches[0].child.id = 'yes';
    const problems = validateTree(tree, schema);
    expect(problems).toEqual([
      {
        field: 'node_tree.yes',
        rule: 'format',
        message: expect.stringContaining('"yes" is used more than once'),
      },
    ]);
  });

  it('refuses a missing or non-string name', () => {
    expect(rules(after(approval({ name: '' })))).toEqual([['node_tree.a1', 'required']]);
    expect(rules(after(approval({ name: 3 })))).toEqual([['node_tree.a1', 'type']]);
  });

  it('refuses a missing or unknown node type', () => {
    expect(rules(after(approval({ type: undefined })))).toEqual([['node_tree.a1', 'required']]);
    expect(rules(after(approval({ type: 'end' })))).toEqual([['node_tree.a1', 'option']]);
  });

  it(`reports a tree nested deeper than ${MAX_TREE_DEPTH} nodes instead of overflowing`, () => {
    const build = (n: number) => {
      let node: Record<string, unknown> | null = null;
      for (let i = n - 1; i >= 1; i--) node = { ...approval({ id: `n${i}` }), child: node };
      return { id: 'start', type: 'start', name: 'S', child: node };
    };
    expect(validateTree(build(MAX_TREE_DEPTH), schema)).toEqual([]);
    expect(rules(build(MAX_TREE_DEPTH + 1))).toEqual([[`node_tree.n${MAX_TREE_DEPTH}`, 'range']]);
    expect(rules(build(100_000))).toEqual([[`node_tree.n${MAX_TREE_DEPTH}`, 'range']]);
  });

  it('counts branch nesting toward the depth cap', () => {
    let node: Record<string, unknown> = approval({ id: 'leaf' });
    for (let i = 0; i < MAX_TREE_DEPTH; i++) {
      node = {
        id: `b${i}`,
        type: 'branch',
        name: 'B',
        branches: [
          {
            id: `y${i}`,
            name: 'Y',
            condition: { field: 'urgent', op: 'eq', value: true },
            child: node,
          },
          { id: `d${i}`, name: 'D', default: true, child: null },
        ],
      };
    }
    const problems = validateTree(after(node), schema);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.rule).toBe('range');
  });

  it('survives a cyclic in-memory tree', () => {
    const node: Record<string, unknown> = approval();
    node.child = node;
    const problems = validateTree(after(node), schema);
    expect(problems.at(-1)?.rule).toBe('range');
  });
});

describe('validateTree: hidden fields', () => {
  it('refuses undeclared keys in hiddenFields, on any node type', () => {
    expect(rules(after(approval({ hiddenFields: ['salary', 'bonus'] })))).toEqual([
      ['node_tree.a1', 'option'],
    ]);
    expect(
      rules(
        after({
          id: 'c',
          type: 'cc',
          name: 'C',
          assignee: { type: 'users', userIds: [1] },
          hiddenFields: ['nope'],
        }),
      ),
    ).toEqual([['node_tree.c', 'option']]);
  });

  it('takes autoApproveRepeats on the start node as off, consecutive or any', () => {
    const root = (value: unknown) => ({
      id: 's',
      type: 'start',
      name: 'S',
      autoApproveRepeats: value,
    });
    for (const value of ['off', 'consecutive', 'any'])
      expect(validateTree(root(value), schema)).toEqual([]);
    expect(rules(root('always'))).toEqual([['node_tree.s', 'option']]);
  });

  it('refuses any hidden field on the start node, where it would have no effect', () => {
    const problems = validateTree(
      { id: 's', type: 'start', name: 'S', hiddenFields: ['salary'] },
      schema,
    );
    expect(problems.map((p) => [p.field, p.rule])).toEqual([['node_tree.s', 'option']]);
    expect(problems[0]!.message).toContain('a start node cannot hide fields');
    expect(validateTree({ id: 's', type: 'start', name: 'S', hiddenFields: [] }, schema)).toEqual(
      [],
    );
  });

  it('refuses hiddenFields that is not an array of strings', () => {
    expect(rules(after(approval({ hiddenFields: 'salary' })))).toEqual([['node_tree.a1', 'type']]);
    expect(rules(after(approval({ hiddenFields: [1] })))).toEqual([['node_tree.a1', 'type']]);
  });
});

describe('validateTree: approval nodes', () => {
  it('requires an assignee rule and a mode', () => {
    expect(rules(after(approval({ assignee: undefined, mode: undefined })))).toEqual([
      ['node_tree.a1', 'required'],
      ['node_tree.a1', 'required'],
    ]);
  });

  it('refuses an unknown mode', () => {
    expect(rules(after(approval({ mode: 'all' })))).toEqual([['node_tree.a1', 'option']]);
  });

  it('takes vote mode with a pass ratio above 0 and at most 1', () => {
    expect(rules(after(approval({ mode: 'vote', passRatio: 0.6 })))).toEqual([]);
    expect(rules(after(approval({ mode: 'vote', passRatio: 1 })))).toEqual([]);
    expect(rules(after(approval({ mode: 'vote' })))).toEqual([['node_tree.a1', 'required']]);
    for (const [passRatio, rule] of [
      [0, 'range'],
      [1.5, 'range'],
      ['half', 'type'],
    ] as const) {
      expect(rules(after(approval({ mode: 'vote', passRatio })))).toEqual([['node_tree.a1', rule]]);
    }
  });

  it.each([
    [{ type: 'users', userIds: [] }, 'required'],
    [{ type: 'users' }, 'required'],
    [{ type: 'users', userIds: [0] }, 'type'],
    [{ type: 'users', userIds: [1.5] }, 'type'],
    [{ type: 'users', userIds: ['1'] }, 'type'],
    [{ type: 'users', userIds: 1 }, 'type'],
    [{ type: 'roles', roleIds: [] }, 'required'],
    [{ type: 'roles', roleIds: [-1] }, 'type'],
    [{ type: 'dept_leader' }, 'required'],
    [{ type: 'dept_leader', source: 'manager' }, 'option'],
    [{ type: 'dept_leader', source: 'form_field' }, 'required'],
    [{ type: 'dept_leader', source: 'form_field', field: 'ghost' }, 'option'],
    [{ type: 'dept_leader', source: 'form_field', field: 'kind' }, 'type'],
    [{ type: 'dept_leader', source: 'form_field', field: 'amount' }, 'type'],
    [{ type: 'dept_leader', source: 'initiator', level: 0 }, 'range'],
    [{ type: 'dept_leader', source: 'initiator', level: 1.5 }, 'type'],
    [{ type: 'dept_leader', source: 'initiator', initiatorIsLeader: 'promote' }, 'option'],
    [{ type: 'everyone' }, 'option'],
    [{}, 'required'],
    ['users', 'type'],
  ])('refuses the assignee rule %j', (assignee, rule) => {
    expect(rules(after(approval({ assignee })))).toEqual([['node_tree.a1', rule]]);
  });

  it('reports a bad form_field and a bad level of one dept_leader rule together', () => {
    const assignee = { type: 'dept_leader', source: 'form_field', field: 'ghost', level: 0 };
    expect(rules(after(approval({ assignee })))).toEqual([
      ['node_tree.a1', 'option'],
      ['node_tree.a1', 'range'],
    ]);
  });

  it('accepts level 1 and an initiator_selected approval', () => {
    const assignee = { type: 'dept_leader', source: 'initiator', level: 1 };
    expect(rules(after(approval({ assignee })))).toEqual([]);
    expect(rules(after(approval({ assignee: { type: 'initiator_selected' } })))).toEqual([]);
  });

  it('refuses a non-boolean allowBackPrev and an unknown onReject', () => {
    expect(rules(after(approval({ allowBackPrev: 'yes', onReject: 'previous' })))).toEqual([
      ['node_tree.a1', 'type'],
      ['node_tree.a1', 'option'],
    ]);
  });

  it.each([
    [{ hours: 0, action: 'remind' }, 'range'],
    [{ hours: -1, action: 'remind' }, 'range'],
    [{ hours: 87_601, action: 'remind' }, 'range'],
    [{ hours: '24', action: 'remind' }, 'type'],
    [{ action: 'remind' }, 'required'],
    [{ hours: 24 }, 'required'],
    [{ hours: 24, action: 'skip' }, 'option'],
    [24, 'type'],
    [{ hours: 24, action: 'remind', repeatCount: 3 }, 'required'],
    [{ hours: 24, action: 'remind', repeatCount: 21, repeatEveryHours: 1 }, 'range'],
    [{ hours: 24, action: 'remind', repeatCount: 1.5 }, 'type'],
    [{ hours: 24, action: 'auto_approve', repeatEveryHours: 4 }, 'option'],
    [{ hours: 24, action: 'escalate', repeatCount: 2 }, 'option'],
    [{ hours: 24, action: 'escalate', repeatEveryHours: 0 }, 'range'],
    [{ hours: 24, action: 'escalate', finalAction: 'terminate' }, 'option'],
    [{ hours: 24, action: 'remind', finalAction: 'stay' }, 'option'],
  ])('refuses the timeout %j', (timeout, rule) => {
    expect(rules(after(approval({ timeout })))).toEqual([['node_tree.a1', rule]]);
  });

  it('accepts repeating reminders and an escalation with its final action', () => {
    const reminders = { hours: 8, action: 'remind', repeatEveryHours: 4, repeatCount: 3 };
    const escalation = {
      hours: 24,
      action: 'escalate',
      repeatEveryHours: 12,
      finalAction: 'auto_reject',
    };
    expect(rules(after(approval({ timeout: reminders })))).toEqual([]);
    expect(rules(after(approval({ timeout: escalation })))).toEqual([]);
  });

  it('accepts a fractional timeout just above zero', () => {
    expect(rules(after(approval({ timeout: { hours: 0.01, action: 'auto_reject' } })))).toEqual([]);
  });

  it.each([
    [{ strategy: 'fallback_users' }, 'required'],
    [{ strategy: 'fallback_users', userIds: [] }, 'required'],
    [{ strategy: 'fallback_users', userIds: ['x'] }, 'type'],
    [{ strategy: 'skip' }, 'option'],
    [{}, 'required'],
    ['suspend', 'type'],
  ])('refuses the emptyAssignee %j', (emptyAssignee, rule) => {
    expect(rules(after(approval({ emptyAssignee })))).toEqual([['node_tree.a1', rule]]);
  });
});

describe('validateTree: cc nodes', () => {
  const cc = (assignee: unknown) => after({ id: 'c1', type: 'cc', name: 'Copy', assignee });

  it('accepts users, roles and department leaders', () => {
    expect(rules(cc({ type: 'users', userIds: [1] }))).toEqual([]);
    expect(rules(cc({ type: 'roles', roleIds: [1] }))).toEqual([]);
    expect(rules(cc({ type: 'dept_leader', source: 'initiator' }))).toEqual([]);
  });

  it('refuses an initiator_selected cc', () => {
    expect(rules(cc({ type: 'initiator_selected' }))).toEqual([['node_tree.c1', 'option']]);
  });

  it('requires an assignee', () => {
    expect(rules(cc(undefined))).toEqual([['node_tree.c1', 'required']]);
  });
});

describe('validateTree: branch nodes', () => {
  const branchNode = (branches: unknown) =>
    after({ id: 'b', type: 'branch', name: 'Route', branches });
  const cond = { field: 'urgent', op: 'eq', value: true };

  it('requires at least two branches', () => {
    expect(rules(branchNode([{ id: 'x', name: 'X', default: true }]))).toEqual([
      ['node_tree.b', 'range'],
    ]);
    expect(rules(branchNode([]))).toEqual([['node_tree.b', 'range']]);
    expect(rules(branchNode(undefined))).toEqual([['node_tree.b', 'required']]);
    expect(rules(branchNode({}))).toEqual([['node_tree.b', 'type']]);
  });

  it('rejects a second default branch naming the node', () => {
    const problems = validateTree(
      branchNode([
        { id: 'x', name: 'X', default: true },
        { id: 'y', name: 'Y', default: true },
      ]),
      schema,
    );
    expect(problems).toEqual([
      { field: 'node_tree.b', rule: 'format', message: expect.stringMatching(/node "b".*"y"/) },
    ]);
  });

  it('requires a condition on every branch but the default, naming the branch', () => {
    expect(
      rules(
        branchNode([
          { id: 'x', name: 'X' },
          { id: 'y', name: 'Y', condition: cond },
        ]),
      ),
    ).toEqual([['node_tree.x', 'required']]);
  });

  it('accepts branches without any default', () => {
    expect(
      rules(
        branchNode([
          { id: 'x', name: 'X', condition: cond },
          { id: 'y', name: 'Y', condition: cond },
        ]),
      ),
    ).toEqual([]);
  });

  it('refuses a condition on the default branch', () => {
    expect(
      rules(
        branchNode([
          { id: 'x', name: 'X', condition: cond },
          { id: 'y', name: 'Y', default: true, condition: cond },
        ]),
      ),
    ).toEqual([['node_tree.y', 'format']]);
  });

  it('checks each branch: object, id, name, boolean default', () => {
    expect(
      rules(
        branchNode([
          'x',
          { name: 'No id', condition: cond },
          { id: 'n', condition: cond },
          { id: 'd', name: 'D', default: 'yes', condition: cond },
        ]),
      ),
    ).toEqual([
      ['node_tree.b', 'type'],
      ['node_tree', 'required'],
      ['node_tree.n', 'required'],
      ['node_tree.d', 'type'],
    ]);
  });

  it("walks the branches' chains", () => {
    const tree = branchNode([
      { id: 'x', name: 'X', condition: cond, child: approval({ mode: 'any' }) },
      { id: 'y', name: 'Y', default: true, child: { id: 'c', type: 'cc', name: 'C' } },
    ]);
    expect(rules(tree)).toEqual([
      ['node_tree.a1', 'option'],
      ['node_tree.c', 'required'],
    ]);
  });
});

describe('validateTree: conditions', () => {
  const one = (condition: unknown) => rules(branchOn(condition));

  it('names the branch and the path inside the condition', () => {
    const problems = validateTree(
      branchOn({ all: [cond('days', 'gt', 1), { field: 'ghost', op: 'eq', value: 1 }] }),
      schema,
    );
    expect(problems).toEqual([
      {
        field: 'node_tree.yes',
        rule: 'option',
        message: expect.stringContaining('condition.all[1]'),
      },
    ]);
    expect(problems[0]?.message).toContain('branch "yes"');
  });

  it('accepts initiator.dept_id and initiator.role_ids', () => {
    expect(one(cond('initiator.dept_id', 'eq', 3))).toEqual([]);
    expect(one(cond('initiator.role_ids', 'contains', 3))).toEqual([]);
    expect(one(cond('initiator.role_ids', 'not_in', [3]))).toEqual([]);
    expect(one(cond('initiator.role_ids', 'empty'))).toEqual([]);
  });

  it('refuses eq and ne on initiator.role_ids, a list that condition.ts cannot compare', () => {
    expect(one(cond('initiator.role_ids', 'eq', [1, 2]))).toEqual([['node_tree.yes', 'type']]);
    expect(one(cond('initiator.role_ids', 'ne', 1))).toEqual([['node_tree.yes', 'type']]);
  });

  it('refuses role ids that are not positive integers', () => {
    expect(one(cond('initiator.role_ids', 'in', [1, '2']))).toEqual([['node_tree.yes', 'type']]);
    expect(one(cond('initiator.role_ids', 'contains', 0))).toEqual([['node_tree.yes', 'type']]);
    expect(one(cond('initiator.role_ids', 'not_in', [0]))).toEqual([['node_tree.yes', 'type']]);
    expect(one(cond('initiator.dept_id', 'in', [1.5]))).toEqual([['node_tree.yes', 'type']]);
  });

  it('refuses a field the form does not declare', () => {
    expect(one(cond('ghost', 'eq', 1))).toEqual([['node_tree.yes', 'option']]);
    expect(one(cond('initiator.name', 'eq', 'x'))).toEqual([['node_tree.yes', 'option']]);
    expect(one({ field: 3, op: 'eq', value: 1 })).toEqual([['node_tree.yes', 'type']]);
  });

  it('refuses a missing or unknown operator', () => {
    expect(one({ field: 'days', value: 1 })).toEqual([['node_tree.yes', 'required']]);
    expect(one(cond('days', 'between', 1))).toEqual([['node_tree.yes', 'option']]);
  });

  it.each([
    ['kind', 'gt', 'Sick'],
    ['title', 'lte', 'x'],
    ['urgent', 'gte', true],
    ['initiator.dept_id', 'gt', 1],
    ['initiator.role_ids', 'lt', 1],
    ['days', 'contains', 1],
    ['kind', 'contains', 'S'],
    ['amount', 'contains', 1],
    ['day', 'contains', '2026'],
  ])('refuses %s %s: the operator does not fit the field type', (field, op, value) => {
    expect(one(cond(field, op, value))).toEqual([['node_tree.yes', 'type']]);
  });

  it.each([
    ['days', 'gt', 1.5],
    ['amount', 'gte', 1000000],
    ['day', 'lt', '2026-01-01'],
    ['title', 'contains', 'x'],
    ['reason', 'contains', 'x'],
    ['kind', 'eq', 'Annual'],
    ['urgent', 'ne', true],
    ['day', 'eq', '2024-02-29'],
  ])('accepts %s %s %j', (field, op, value) => {
    expect(one(cond(field, op, value))).toEqual([]);
  });

  it.each([
    ['days', 'gt', '5', 'type'],
    ['days', 'eq', NaN, 'type'],
    ['amount', 'gt', 100.5, 'type'],
    ['amount', 'gt', '1000000', 'type'],
    ['day', 'gte', '2025-02-29', 'type'],
    ['day', 'gte', 20250101, 'type'],
    ['urgent', 'eq', 'true', 'type'],
    ['title', 'eq', 3, 'type'],
    ['kind', 'eq', 'Maternity', 'option'],
    ['kind', 'in', ['Annual', 'Maternity'], 'option'],
    ['initiator.dept_id', 'eq', '3', 'type'],
    ['initiator.dept_id', 'eq', 0, 'type'],
    ['initiator.role_ids', 'contains', [3], 'type'],
    ['initiator.role_ids', 'eq', 3, 'type'],
    ['title', 'contains', '', 'required'],
    ['days', 'eq', undefined, 'required'],
  ])('refuses %s %s %j (%s)', (field, op, value, rule) => {
    expect(one(cond(field, op, value))).toEqual([['node_tree.yes', rule]]);
  });

  it('documents amount conditions in cents: 1000000 is 10 000 yuan', () => {
    const [p] = validateTree(branchOn(cond('amount', 'gt', 10000.5)), schema);
    expect(p?.message).toContain('cents');
  });

  it('requires a non-empty array for in and not_in', () => {
    expect(one(cond('days', 'in', 3))).toEqual([['node_tree.yes', 'type']]);
    expect(one(cond('days', 'not_in', []))).toEqual([['node_tree.yes', 'required']]);
    expect(one(cond('days', 'in', [1, 'x']))).toEqual([['node_tree.yes', 'type']]);
    expect(one(cond('days', 'in', [1, 2]))).toEqual([]);
  });

  it('refuses a value for empty and not_empty, accepting none or null', () => {
    expect(one(cond('title', 'empty', 'x'))).toEqual([['node_tree.yes', 'format']]);
    expect(one(cond('title', 'not_empty', 0))).toEqual([['node_tree.yes', 'format']]);
    expect(one({ field: 'title', op: 'empty' })).toEqual([]);
    expect(one({ field: 'title', op: 'not_empty', value: null })).toEqual([]);
  });

  it('refuses empty, non-array and mixed groups', () => {
    expect(one({ all: [] })).toEqual([['node_tree.yes', 'required']]);
    expect(one({ any: 'x' })).toEqual([['node_tree.yes', 'type']]);
    expect(one({ all: [cond('urgent', 'eq', true)], field: 'days' })).toEqual([
      ['node_tree.yes', 'format'],
    ]);
    expect(one({})).toEqual([['node_tree.yes', 'format']]);
    expect(one('urgent')).toEqual([['node_tree.yes', 'type']]);
  });

  it('checks every member of nested groups', () => {
    expect(
      one({
        any: [
          cond('ghost', 'eq', 1),
          { all: [cond('days', 'contains', 1), cond('urgent', 'eq', true)] },
        ],
      }),
    ).toEqual([
      ['node_tree.yes', 'option'],
      ['node_tree.yes', 'type'],
    ]);
  });

  it(`reports conditions nested deeper than ${MAX_CONDITION_DEPTH} levels`, () => {
    let c: unknown = cond('urgent', 'eq', true);
    for (let i = 0; i < 10_000; i++) c = { all: [c] };
    expect(one(c)).toEqual([['node_tree.yes', 'range']]);
  });
});

describe('validateTree: reporting', () => {
  it('reports every violation at once, each naming its node', () => {
    const tree = exampleTree();
    tree.hiddenFields = ['nope'];
    tree.child.mode = 'xor';
    tree.child.timeout.hours = 0;
    tree.child.hiddenFields = ['bonus'];
    tree.child.child.branches[0].condition.field = 'total';
    tree.child.child.branches[1].default = false;
    tree.child.child.branches[0].child.assignee.roleIds = [];
    tree.child.child.child.assignee = { type: 'initiator_selected' };
    const problems = validateTree(tree, schema);
    expect(problems.map((p) => [p.field, p.rule])).toEqual([
      ['node_tree.start', 'option'],
      ['node_tree.start', 'option'],
      ['node_tree.leader', 'option'],
      ['node_tree.leader', 'option'],
      ['node_tree.leader', 'range'],
      ['node_tree.big', 'option'],
      ['node_tree.cfo', 'required'],
      ['node_tree.other', 'required'],
      ['node_tree.notify_hr', 'option'],
    ]);
    for (const p of problems)
      expect(p.message).toContain(`"${p.field.slice('node_tree.'.length)}"`);
  });
});

function cond(field: string, op: string, value?: unknown): Record<string, unknown> {
  return value === undefined ? { field, op } : { field, op, value };
}
