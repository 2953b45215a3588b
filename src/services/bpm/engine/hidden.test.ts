import { describe, expect, it } from 'vitest';
import { collectNodes, hiddenFieldsOf, stripHidden } from './hidden.js';
import type { FlowNode } from './types.js';

const tree: FlowNode = {
  id: 'start',
  type: 'start',
  name: 'Submit',
  hiddenFields: ['note'],
  child: {
    id: 'leader',
    type: 'approval',
    name: 'Leader',
    assignee: { type: 'dept_leader', source: 'initiator' },
    mode: 'or',
    hiddenFields: ['salary', 'bonus'],
    child: {
      id: 'route',
      type: 'branch',
      name: 'Route',
      branches: [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 1000000 },
          child: {
            id: 'cfo',
            type: 'approval',
            name: 'CFO',
            assignee: { type: 'roles', roleIds: [3] },
            mode: 'and',
            hiddenFields: ['bonus', 'phone'],
            child: {
              id: 'ceo',
              type: 'cc',
              name: 'CEO',
              assignee: { type: 'users', userIds: [1] },
            },
          },
        },
        { id: 'other', name: 'Other', default: true, child: null },
      ],
      child: {
        id: 'hr',
        type: 'cc',
        name: 'HR',
        assignee: { type: 'users', userIds: [7] },
        hiddenFields: ['salary'],
        child: null,
      },
    },
  },
};

describe('collectNodes', () => {
  it("lists every node in document order, branch chains before the branch node's child", () => {
    expect(collectNodes(tree).map((n) => n.id)).toEqual([
      'start',
      'leader',
      'route',
      'cfo',
      'ceo',
      'hr',
    ]);
  });

  it('walks a chain of 100 000 nodes without overflowing the stack', () => {
    let node: FlowNode | null = null;
    for (let i = 0; i < 100_000; i++) {
      node = {
        id: `n${i}`,
        type: 'cc',
        name: 'N',
        assignee: { type: 'users', userIds: [1] },
        child: node,
      };
    }
    expect(collectNodes(node as FlowNode)).toHaveLength(100_000);
  });
});

describe('hiddenFieldsOf', () => {
  it('returns the union of the named nodes, each key once', () => {
    expect(hiddenFieldsOf(tree, ['leader', 'cfo'])).toEqual(['salary', 'bonus', 'phone']);
  });

  it('finds nodes inside branches', () => {
    expect(hiddenFieldsOf(tree, ['cfo'])).toEqual(['bonus', 'phone']);
  });

  it('returns nothing for nodes without hiddenFields, unknown ids and no ids', () => {
    expect(hiddenFieldsOf(tree, ['ceo', 'route', 'ghost', 'big'])).toEqual([]);
    expect(hiddenFieldsOf(tree, [])).toEqual([]);
  });
});

describe('stripHidden', () => {
  const form = { title: 'Trip', salary: 100000, bonus: 500, urgent: true };

  it('removes the hidden keys and keeps the rest', () => {
    expect(stripHidden(form, ['salary', 'bonus', 'phone'])).toEqual({
      title: 'Trip',
      urgent: true,
    });
  });

  it('returns a copy and leaves the form untouched', () => {
    const copy = stripHidden(form, []);
    expect(copy).toEqual(form);
    expect(copy).not.toBe(form);
    stripHidden(form, ['salary']);
    expect(form.salary).toBe(100000);
  });
});
