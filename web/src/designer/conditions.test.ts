import { describe, expect, it } from 'vitest';
import type { Condition, FormSchema } from '../api/bpm';
import { fromGroup, toGroup } from './conditions';

const schema: FormSchema = {
  fields: [
    { key: 'amount', label: 'Amount', type: 'amount' },
    { key: 'days', label: 'Days', type: 'number' },
    { key: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
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
});
