import { describe, expect, it } from 'vitest';
import type { Condition, FlowNode, FormSchema } from '../../../api/bpm';
import {
  conditionIds,
  conditionText,
  fromGroup,
  idsOfText,
  opAfterFieldChange,
  opsFor,
  toGroup,
} from './conditions';

const schema: FormSchema = {
  fields: [
    { key: 'amount', label: 'Amount', type: 'amount' },
    { key: 'days', label: 'Days', type: 'number' },
    { key: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
    { key: 'manager', label: 'Manager', type: 'user' },
    { key: 'dept', label: 'Department', type: 'dept' },
  ],
};

describe('condition builder', () => {
  it('stores amounts in cents as the server compares them, and shows them in yuan', () => {
    const c = fromGroup(schema, {
      join: 'all',
      items: [{ field: 'amount', op: 'gt', value: '1000.5' }],
    });
    expect(c).toEqual({ field: 'amount', op: 'gt', value: 100050 });
    expect(toGroup(c, schema)).toEqual({
      join: 'all',
      items: [{ field: 'amount', op: 'gt', value: '1000.50' }],
    });
  });

  it('joins several comparisons with all/any, typing numbers and lists', () => {
    expect(
      fromGroup(schema, {
        join: 'any',
        items: [
          { field: 'days', op: 'gte', value: '3' },
          { field: 'kind', op: 'in', value: 'a, b' },
          { field: 'kind', op: 'not_empty', value: 'ignored' },
        ],
      }),
    ).toEqual({
      any: [
        { field: 'days', op: 'gte', value: 3 },
        { field: 'kind', op: 'in', value: ['a', 'b'] },
        { field: 'kind', op: 'not_empty' },
      ],
    });
    expect(fromGroup(schema, { join: 'all', items: [] })).toBeUndefined();
  });

  it('nests groups both ways, as the server does, and keeps a stored nesting intact', () => {
    const stored: Condition = {
      any: [
        { field: 'amount', op: 'gt', value: 500000 },
        {
          all: [
            { field: 'days', op: 'gte', value: 3 },
            {
              any: [
                { field: 'kind', op: 'eq', value: 'a' },
                { field: 'kind', op: 'empty' },
              ],
            },
          ],
        },
      ],
    };
    const tree = toGroup(stored, schema);
    expect(tree).toEqual({
      join: 'any',
      items: [
        { field: 'amount', op: 'gt', value: '5000.00' },
        {
          join: 'all',
          items: [
            { field: 'days', op: 'gte', value: '3' },
            {
              join: 'any',
              items: [
                { field: 'kind', op: 'eq', value: 'a' },
                { field: 'kind', op: 'empty', value: undefined },
              ],
            },
          ],
        },
      ],
    });
    expect(fromGroup(schema, tree)).toEqual(stored);
  });

  it('leaves empty groups out and unwraps a group of one', () => {
    expect(
      fromGroup(schema, {
        join: 'all',
        items: [
          { join: 'any', items: [] },
          { join: 'any', items: [{ field: 'days', op: 'lt', value: '2' }] },
        ],
      }),
    ).toEqual({ field: 'days', op: 'lt', value: 2 });
  });

  it('compares a file field only by emptiness, as the engine does', () => {
    expect(opsFor('file')).toEqual(['empty', 'not_empty']);
    // A row moved onto a file field loses an operator the field does not take, and keeps one it does.
    expect(opAfterFieldChange('file', 'eq')).toBe('empty');
    expect(opAfterFieldChange('file', 'not_empty')).toBe('not_empty');
    expect(opAfterFieldChange('input', 'not_empty')).toBe('not_empty');
    expect(opAfterFieldChange('user', 'gt')).toBe('eq');
    const schema = { fields: [{ key: 'att', label: 'Attachments', type: 'file' as const }] };
    expect(
      fromGroup(schema, { join: 'all', items: [{ field: 'att', op: 'not_empty', value: '' }] }),
    ).toEqual({ field: 'att', op: 'not_empty' });
  });

  it('compares person and department fields by id, picked ids kept as the row text', () => {
    expect(opsFor('user')).toEqual(['eq', 'ne', 'in', 'not_in', 'empty', 'not_empty']);
    expect(opsFor('number')).toContain('gt');
    expect(idsOfText('3, 5,,x,0')).toEqual([3, 5]);
    const stored: Condition = {
      all: [
        { field: 'manager', op: 'eq', value: 7 },
        { field: 'dept', op: 'not_in', value: [2, 4] },
        { field: 'manager', op: 'in', value: [] },
        { field: 'dept', op: 'empty' },
      ],
    };
    const tree = toGroup(stored, schema);
    expect(tree.items).toEqual([
      { field: 'manager', op: 'eq', value: '7' },
      { field: 'dept', op: 'not_in', value: '2,4' },
      { field: 'manager', op: 'in', value: '' },
      { field: 'dept', op: 'empty', value: undefined },
    ]);
    expect(fromGroup(schema, tree)).toEqual(stored);
  });

  it('says a condition in words, people and departments by name once known', () => {
    const c: Condition = {
      any: [
        { field: 'amount', op: 'gt', value: 100050 },
        {
          all: [
            { field: 'manager', op: 'in', value: [7, 8] },
            { field: 'dept', op: 'eq', value: 2 },
          ],
        },
      ],
    };
    const names = {
      user: (id: number) => ({ 7: 'Bob' })[id],
      dept: (id: number) => ({ 2: 'Sales' })[id],
    };
    expect(conditionText(c, schema, names)).toBe(
      'Amount gt ¥1,000.50 OR (Manager in Bob, #8 AND Department eq Sales)',
    );
    expect(conditionText({ field: 'kind', op: 'eq', value: 'a' }, schema)).toBe('Kind eq "a"');
    expect(conditionText({ field: 'manager', op: 'eq', value: 7 }, schema)).toBe('Manager eq #7');
  });

  it("reads operators and groups in the reader's words when given", () => {
    const words = {
      op: (op: string) => ({ gt: 'is over', eq: 'is' })[op] ?? op,
      and: 'and',
      or: 'or',
    };
    const c: Condition = {
      all: [
        { field: 'amount', op: 'gt', value: 12345678 },
        { field: 'kind', op: 'eq', value: 'a' },
      ],
    };
    expect(conditionText(c, schema, undefined, words)).toBe(
      'Amount is over ¥123,456.78 and Kind is "a"',
    );
  });

  it("collects the people and departments the tree's conditions name", () => {
    const tree: FlowNode = {
      id: 'start',
      name: 'Start',
      type: 'start',
      child: {
        id: 'br',
        name: 'Route',
        type: 'branch',
        branches: [
          {
            id: 'a',
            name: 'A',
            condition: { any: [{ field: 'manager', op: 'in', value: [7, 8] }] },
            child: {
              id: 'inner',
              name: 'Inner',
              type: 'branch',
              branches: [
                {
                  id: 'c',
                  name: 'C',
                  condition: { field: 'dept', op: 'eq', value: 2 },
                  child: null,
                },
                {
                  id: 'd',
                  name: 'D',
                  condition: { field: 'days', op: 'eq', value: 9 },
                  child: null,
                },
              ],
              child: null,
            },
          },
          { id: 'b', name: 'B', default: true, child: null },
        ],
        child: null,
      },
    };
    expect(conditionIds(tree, schema)).toEqual({ user: [7, 8], dept: [2] });
  });
});
