import { describe, expect, it } from 'vitest';
import { dropPlaceOf, planMove, type SortedNode } from './treeMove';

/** a(b, c(d)), e — sorts as the server might hold them (gaps, a tie). */
function tree(): SortedNode[] {
  return [
    {
      id: 1,
      sort: 0,
      children: [
        { id: 2, sort: 5, children: [] },
        { id: 3, sort: 5, children: [{ id: 4, sort: 0, children: [] }] },
      ],
    },
    { id: 5, sort: 7, children: [] },
  ];
}

describe('planMove', () => {
  it('moves an entry inside another as its last child', () => {
    expect(planMove(tree(), 5, 3, 'inside')).toEqual([
      { id: 4, sort: 10 },
      { id: 5, sort: 20, parent_id: 3 },
    ]);
  });

  it('moves an entry before a sibling, renumbering the level', () => {
    expect(planMove(tree(), 3, 2, 'before')).toEqual([
      { id: 3, sort: 10, parent_id: 1 },
      { id: 2, sort: 20 },
    ]);
  });

  it('moves an entry to the top level after another', () => {
    expect(planMove(tree(), 4, 1, 'after')).toEqual([
      { id: 1, sort: 10 },
      { id: 4, sort: 20, parent_id: null },
      { id: 5, sort: 30 },
    ]);
  });

  it('refuses a move into its own subtree or onto itself', () => {
    expect(planMove(tree(), 1, 4, 'inside')).toBeNull();
    expect(planMove(tree(), 3, 4, 'before')).toBeNull();
    expect(planMove(tree(), 3, 3, 'inside')).toBeNull();
    expect(planMove(tree(), 99, 3, 'inside')).toBeNull();
  });

  it('answers null when the drop leaves the order as it was', () => {
    expect(planMove(tree(), 2, 3, 'before')).toBeNull();
    expect(planMove(tree(), 3, 2, 'after')).toBeNull();
  });
});

describe('dropPlaceOf', () => {
  it('reads antd Tree drops as inside, before and after', () => {
    expect(dropPlaceOf(false, 2, '0-2')).toBe('inside');
    expect(dropPlaceOf(true, 1, '0-2')).toBe('before');
    expect(dropPlaceOf(true, 3, '0-2')).toBe('after');
    expect(dropPlaceOf(true, -1, '0-0')).toBe('before');
  });
});
