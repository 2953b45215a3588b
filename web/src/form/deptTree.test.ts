import { describe, expect, it } from 'vitest';
import { deptNames, deptTree } from './deptTree';

describe('department tree', () => {
  it('puts children under their parent, sorted by name at each level', () => {
    const tree = deptTree([
      { id: 3, name: 'Sales', parent_id: 1 },
      { id: 1, name: 'Head office', parent_id: null },
      { id: 2, name: 'Engineering', parent_id: 1 },
      { id: 4, name: 'Backend', parent_id: 2 },
    ]);
    expect(tree).toEqual([
      {
        value: 1,
        title: 'Head office',
        children: [
          {
            value: 2,
            title: 'Engineering',
            children: [{ value: 4, title: 'Backend', children: [] }],
          },
          { value: 3, title: 'Sales', children: [] },
        ],
      },
    ]);
  });

  it('keeps departments whose parent is unknown, and breaks loops, at the top', () => {
    const tree = deptTree([
      { id: 5, name: 'Orphan', parent_id: 99 },
      { id: 6, name: 'Loop A', parent_id: 7 },
      { id: 7, name: 'Loop B', parent_id: 6 },
      { id: 8, name: 'Self', parent_id: 8 },
      { id: 9, name: 'Below the loop', parent_id: 6 },
    ]);
    const titles = (nodes: typeof tree): unknown[] =>
      nodes.map((n) => (n.children.length ? [n.title, titles(n.children)] : n.title));
    expect(titles(tree)).toEqual([['Loop A', ['Below the loop']], 'Loop B', 'Orphan', 'Self']);
    expect(deptNames([{ id: 5, name: 'Orphan', parent_id: 99 }]).get(5)).toBe('Orphan');
    expect(deptNames(undefined).size).toBe(0);
  });
});
