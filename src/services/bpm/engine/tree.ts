import type { BranchNode, FlowNode } from './types.js';

/**
 * Navigation over a frozen node tree. Trees are small (tens of nodes), so parents are found by
 * walking the tree rather than by an index that would have to be kept beside it.
 */

/** Every node, depth first: a node, then its branches' chains in order, then its child. */
export function allNodes(tree: FlowNode): FlowNode[] {
  const out: FlowNode[] = [];
  const visit = (node: FlowNode | null | undefined): void => {
    for (let n = node; n; n = n.child) {
      out.push(n);
      if (n.type === 'branch') for (const b of n.branches) visit(b.child);
    }
  };
  visit(tree);
  return out;
}

export function findNode(tree: FlowNode, id: string): FlowNode | null {
  return allNodes(tree).find((n) => n.id === id) ?? null;
}

/** The branch node whose branch chain holds `id` (directly, not through a nested branch). */
export function enclosingBranch(tree: FlowNode, id: string): BranchNode | null {
  const search = (
    chain: FlowNode | null | undefined,
    owner: BranchNode | null,
  ): BranchNode | null | undefined => {
    for (let n = chain; n; n = n.child) {
      if (n.id === id) return owner;
      if (n.type === 'branch') {
        for (const b of n.branches) {
          const found = search(b.child, n);
          if (found !== undefined) return found;
        }
      }
    }
    return undefined;
  };
  return search(tree, null) ?? null;
}

/**
 * The node the cursor moves to once `nodeId` is done: its child; at the end of a chain inside a
 * branch, the enclosing branch node's child (outward, as far as needed); null at the end of the
 * tree. An id the tree does not hold is a programming error (the tree is frozen per instance).
 */
export function nextNodeAfter(tree: FlowNode, nodeId: string): FlowNode | null {
  const node = findNode(tree, nodeId);
  if (!node) throw new Error(`node ${nodeId} is not in the tree`);
  if (node.child) return node.child;
  const owner = enclosingBranch(tree, nodeId);
  return owner ? nextNodeAfter(tree, owner.id) : null;
}

/** The first node to enter when `branch` of `node` is chosen (its chain may be empty). */
export function firstNodeOfBranch(
  tree: FlowNode,
  node: BranchNode,
  branchId: string,
): FlowNode | null {
  const branch = node.branches.find((b) => b.id === branchId);
  return branch?.child ?? nextNodeAfter(tree, node.id);
}
