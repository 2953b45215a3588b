import { describe, expect, it } from 'vitest';
import { approval, branch, cc, chain, start, users } from './directory.test-support.js';
import { allNodes, enclosingBranch, findNode, firstNodeOfBranch, nextNodeAfter } from './tree.js';
import type { BranchNode, FlowNode } from './types.js';

/**
 * start → a → outer{ big: [b → inner{ x: [c], y: [] }], small: [] } → tail(cc)
 * inner has no child, so after c the cursor leaves two branch levels at once.
 */
function sample(): FlowNode {
  const inner = branch('inner', [
    {
      id: 'x',
      name: 'X',
      condition: { field: 'n', op: 'gt', value: 1 },
      child: approval('c', users(3)),
    },
    { id: 'y', name: 'Y', default: true, child: null },
  ]);
  const outer = branch('outer', [
    {
      id: 'big',
      name: 'Big',
      condition: { field: 'n', op: 'gt', value: 0 },
      child: chain(approval('b', users(2)), inner),
    },
    { id: 'small', name: 'Small', default: true, child: null },
  ]);
  return chain(start(), approval('a', users(1)), outer, cc('tail', users(9)));
}

describe('allNodes', () => {
  it('lists every node depth first: a node, its branches in order, then its child', () => {
    expect(allNodes(sample()).map((n) => n.id)).toEqual([
      'start',
      'a',
      'outer',
      'b',
      'inner',
      'c',
      'tail',
    ]);
  });
});

describe('findNode', () => {
  it('finds a node nested two branch levels deep', () => {
    expect(findNode(sample(), 'c')?.type).toBe('approval');
  });

  it('answers null for an id the tree does not hold', () => {
    expect(findNode(sample(), 'nope')).toBeNull();
  });
});

describe('nextNodeAfter', () => {
  it('moves to the child when there is one', () => {
    expect(nextNodeAfter(sample(), 'a')?.id).toBe('outer');
  });

  it('continues with the branch node child when a chain inside a branch ends', () => {
    const tree = chain(
      start(),
      branch('br', [{ id: 'p', name: 'P', default: true, child: approval('x', users(1)) }]),
      approval('after', users(2)),
    );
    expect(nextNodeAfter(tree, 'x')?.id).toBe('after');
  });

  it('walks outward through nested branch nodes that have no child', () => {
    expect(nextNodeAfter(sample(), 'c')?.id).toBe('tail');
  });

  it('answers null at the end of the tree', () => {
    expect(nextNodeAfter(sample(), 'tail')).toBeNull();
  });

  it('refuses an id the tree does not hold', () => {
    expect(() => nextNodeAfter(sample(), 'nope')).toThrow(/not in the tree/);
  });
});

describe('enclosingBranch and firstNodeOfBranch', () => {
  it('names the branch node whose chain holds a node, null on the main chain', () => {
    const tree = sample();
    expect(enclosingBranch(tree, 'c')?.id).toBe('inner');
    expect(enclosingBranch(tree, 'b')?.id).toBe('outer');
    expect(enclosingBranch(tree, 'a')).toBeNull();
  });

  it('enters the first node of a branch chain, or what follows the branch node when it is empty', () => {
    const tree = sample();
    const outer = findNode(tree, 'outer') as BranchNode;
    expect(firstNodeOfBranch(tree, outer, 'big')?.id).toBe('b');
    expect(firstNodeOfBranch(tree, outer, 'small')?.id).toBe('tail');
  });
});
