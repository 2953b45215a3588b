import { describe, expect, it } from 'vitest';
import type { FormSchema } from '../api/bpm';
import { fromRows, toRows } from './conditions';

const schema: FormSchema = {
  fields: [
    { key: 'amount', label: 'Amount', type: 'amount' },
    { key: 'days', label: 'Days', type: 'number' },
    { key: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
  ],
};

describe('condition builder', () => {
  it('stores amounts in cents as the server compares them, and shows them in yuan', () => {
    const c = fromRows(schema, 'all', [{ field: 'amount', op: 'gt', value: '1000.5' }]);
    expect(c).toEqual({ field: 'amount', op: 'gt', value: 100050 });
    expect(toRows(c, schema)).toEqual({
      join: 'all',
      rows: [{ field: 'amount', op: 'gt', value: '1000.50' }],
    });
  });

  it('joins several comparisons with all/any, typing numbers and lists', () => {
    expect(
      fromRows(schema, 'any', [
        { field: 'days', op: 'gte', value: '3' },
        { field: 'kind', op: 'in', value: 'a, b' },
        { field: 'kind', op: 'not_empty', value: 'ignored' },
      ]),
    ).toEqual({
      any: [
        { field: 'days', op: 'gte', value: 3 },
        { field: 'kind', op: 'in', value: ['a', 'b'] },
        { field: 'kind', op: 'not_empty' },
      ],
    });
    expect(fromRows(schema, 'all', [])).toBeUndefined();
  });
});
