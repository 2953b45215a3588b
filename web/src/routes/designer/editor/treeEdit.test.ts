import { describe, expect, it } from 'vitest';
import type { BranchNode, FlowNode } from '../../../api/bpm';
import { walkTree } from '../../../diagram/tree';
import {
  addBranch,
  insertAfter,
  insertInBranch,
  newNode,
  patchStart,
  removeBranch,
  removeNode,
  updateNode,
} from './treeEdit';

const names = { approval: 'A', cc: 'C', branch: 'B', otherwise: 'Else', condition: 'If' };
const base: FlowNode = {
  id: 'start',
  name: 'Start',
  type: 'start',
  child: {
    id: 'a1',
    name: 'One',
    type: 'approval',
    assignee: { type: 'users', userIds: [1] },
    mode: 'or',
    child: null,
  },
};
const ids = (tree: FlowNode) => {
  const out: string[] = [];
  walkTree(tree, (n) => out.push(n.id));
  return out;
};

describe('tree edits', () => {
  it('inserts after a node, which keeps its old child below the new one', () => {
    const cc = { ...newNode('cc', names), id: 'cc1' };
    const tree = insertAfter(base, 'start', cc);
    expect(ids(tree)).toEqual(['start', 'cc1', 'a1']);
    expect(ids(base)).toEqual(['start', 'a1']);
  });

  it('adds, fills and removes branches, nested ones included', () => {
    let tree = insertAfter(base, 'a1', { ...newNode('branch', names), id: 'br' });
    const branch = () => {
      let found: BranchNode | undefined;
      walkTree(tree, (n) => {
        if (n.id === 'br' && n.type === 'branch') found = n;
      });
      return found!;
    };
    expect(branch().branches.map((b) => b.default ?? false)).toEqual([false, true]);
    tree = addBranch(tree, 'br', 'Second');
    expect(branch().branches.map((b) => b.name)).toEqual(['If', 'Second', 'Else']);
    const firstArm = branch().branches[0]!.id;
    tree = insertInBranch(tree, firstArm, { ...newNode('branch', names), id: 'inner' });
    tree = insertInBranch(tree, firstArm, { ...newNode('approval', names), id: 'a2' });
    expect(ids(tree)).toEqual(['start', 'a1', 'br', 'a2', 'inner']);
    tree = removeBranch(tree, firstArm);
    expect(ids(tree)).toEqual(['start', 'a1', 'br']);
  });

  it('updates and removes a node but never the start node', () => {
    const renamed = updateNode(base, 'a1', { name: 'Manager' });
    expect(renamed.child?.name).toBe('Manager');
    expect(ids(removeNode(base, 'a1'))).toEqual(['start']);
    expect(removeNode(base, 'start')).toBe(base);
  });

  it("sets and removes the start node's options, leaving the rest of the tree as it was", () => {
    const timed = patchStart(base, { resubmitTimeout: { hours: 72, action: 'cancel' } });
    expect(timed).toMatchObject({ id: 'start', resubmitTimeout: { hours: 72, action: 'cancel' } });
    expect(timed.child).toBe(base.child);
    const cleared = patchStart(timed, { resubmitTimeout: undefined, autoApproveRepeats: 'any' });
    expect('resubmitTimeout' in cleared).toBe(false);
    expect(cleared).toMatchObject({ autoApproveRepeats: 'any' });
    expect(patchStart(base.child!, { autoApproveRepeats: 'any' })).toBe(base.child);
  });
});
