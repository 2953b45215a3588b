import { describe, expect, it } from 'vitest';
import {
  MAX_BRANCH_DEPTH,
  MAX_DOCUMENT_DEPTH,
  MAX_TREE_NODES,
  nestedDeeperThan,
  treeSizeProblems,
} from './tree-size.js';

function chain(n: number) {
  let child: unknown = null;
  for (let i = n; i >= 1; i--) child = { id: `n${i}`, type: 'approval', child };
  return { id: 'start', type: 'start', child };
}

function nested(depth: number) {
  let inner: unknown = null;
  for (let i = depth; i >= 1; i--) {
    inner = { id: `b${i}`, type: 'branch', branches: [{ id: `x${i}`, child: inner }] };
  }
  return { id: 'start', type: 'start', child: inner };
}

describe('tree size limits', () => {
  it('accepts a tree of exactly the node limit and refuses one node more', () => {
    expect(treeSizeProblems(chain(MAX_TREE_NODES - 1))).toEqual([]);
    expect(treeSizeProblems(chain(MAX_TREE_NODES))).toEqual([
      {
        field: 'node_tree',
        rule: 'range',
        message: `the tree has more than ${MAX_TREE_NODES} nodes`,
      },
    ]);
  });

  it('accepts branches nested to the limit and refuses one level more', () => {
    expect(treeSizeProblems(nested(MAX_BRANCH_DEPTH))).toEqual([]);
    expect(treeSizeProblems(nested(MAX_BRANCH_DEPTH + 1))[0]!.message).toContain(
      `${MAX_BRANCH_DEPTH} levels`,
    );
  });

  it('measures JSON nesting without recursion, however deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nestedDeeperThan(deep, MAX_DOCUMENT_DEPTH)).toBe(true);
    expect(treeSizeProblems(deep)[0]!.message).toContain(`${MAX_DOCUMENT_DEPTH} levels`);
    expect(nestedDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });
});
