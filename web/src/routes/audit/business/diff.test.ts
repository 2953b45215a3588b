import { describe, expect, it } from 'vitest';
import { diffRecords, showValue } from './diff';

describe('diffRecords', () => {
  it('marks changed, added, removed and unchanged fields, nested ones by their path', () => {
    const rows = diffRecords(
      { name: 'Sales', status: 'active', meta: { limit: 5, note: 'x' }, gone: 1 },
      { name: 'Sales EU', status: 'active', meta: { limit: 6, note: 'x' }, extra: true },
    );
    expect(rows).toEqual([
      { path: 'extra', before: undefined, after: true, kind: 'added' },
      { path: 'gone', before: 1, after: undefined, kind: 'removed' },
      { path: 'meta.limit', before: 5, after: 6, kind: 'changed' },
      { path: 'meta.note', before: 'x', after: 'x', kind: 'same' },
      { path: 'name', before: 'Sales', after: 'Sales EU', kind: 'changed' },
      { path: 'status', before: 'active', after: 'active', kind: 'same' },
    ]);
  });
  it('compares arrays whole', () => {
    expect(diffRecords({ p: ['a', 'b'] }, { p: ['a', 'c'] })).toEqual([
      { path: 'p', before: ['a', 'b'], after: ['a', 'c'], kind: 'changed' },
    ]);
    expect(diffRecords({ p: ['a'] }, { p: ['a'] })[0]?.kind).toBe('same');
  });
  it('lists a created record as all added and a deleted one as all removed', () => {
    expect(diffRecords(null, { id: 1 })).toEqual([
      { path: 'id', before: undefined, after: 1, kind: 'added' },
    ]);
    expect(diffRecords({ id: 1 }, null)).toEqual([
      { path: 'id', before: 1, after: undefined, kind: 'removed' },
    ]);
    expect(diffRecords(null, null)).toEqual([]);
  });
  it('treats a scalar snapshot as one value', () => {
    expect(diffRecords('a', 'b')).toEqual([
      { path: '(value)', before: 'a', after: 'b', kind: 'changed' },
    ]);
  });
});

describe('showValue', () => {
  it('shows strings plainly and the rest as JSON', () => {
    expect(showValue('x')).toBe('x');
    expect(showValue({ a: 1 })).toBe('{"a":1}');
    expect(showValue(undefined)).toBe('');
    expect(showValue(null)).toBe('null');
  });
});
