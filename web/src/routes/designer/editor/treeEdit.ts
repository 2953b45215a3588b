/**
 * Edits of the node tree as pure functions: every edit answers a new tree, so the designer can
 * keep the last saved one for comparison and React sees each change.
 */
import type {
  ApprovalNode,
  Branch,
  BranchNode,
  CcNode,
  FlowNode,
  StartNode,
} from '../../../api/bpm';

let counter = 0;
/** A node or branch id unique within the tree (letters, digits, `_`). */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}`;
}

export type NewNodeType = 'approval' | 'cc' | 'branch';

export function newNode(
  type: NewNodeType,
  names: { approval: string; cc: string; branch: string; otherwise: string; condition: string },
): FlowNode {
  if (type === 'approval') {
    const node: ApprovalNode = {
      id: newId('approve'),
      name: names.approval,
      type: 'approval',
      assignee: { type: 'users', userIds: [] },
      mode: 'or',
      child: null,
    };
    return node;
  }
  if (type === 'cc') {
    const node: CcNode = {
      id: newId('cc'),
      name: names.cc,
      type: 'cc',
      assignee: { type: 'users', userIds: [] },
      child: null,
    };
    return node;
  }
  const node: BranchNode = {
    id: newId('branch'),
    name: names.branch,
    type: 'branch',
    branches: [
      {
        id: newId('b'),
        name: names.condition,
        condition: { field: '', op: 'eq', value: '' },
        child: null,
      },
      { id: newId('b'), name: names.otherwise, default: true, child: null },
    ],
    child: null,
  };
  return node;
}

/** Applies `edit` to the chain starting at `node` and answers the new chain. */
function mapChain(
  node: FlowNode | null | undefined,
  edit: (n: FlowNode) => FlowNode | null | undefined,
): FlowNode | null {
  if (!node) return null;
  const replaced = edit(node);
  if (replaced === undefined) {
    // Not this node: recurse into its branches and its child.
    const next: FlowNode = { ...node, child: mapChain(node.child, edit) };
    if (next.type === 'branch') {
      next.branches = next.branches.map((b) => ({ ...b, child: mapChain(b.child, edit) }));
    }
    return next;
  }
  return replaced;
}

export function updateNode(tree: FlowNode, id: string, patch: Partial<FlowNode>): FlowNode {
  return mapChain(tree, (n) => (n.id === id ? ({ ...n, ...patch } as FlowNode) : undefined))!;
}

/** Inserts `node` right after the node `afterId` (it takes over that node's child). */
export function insertAfter(tree: FlowNode, afterId: string, node: FlowNode): FlowNode {
  return mapChain(tree, (n) =>
    n.id === afterId ? { ...n, child: { ...node, child: n.child ?? null } } : undefined,
  )!;
}

/** Inserts `node` at the top of a branch arm. */
export function insertInBranch(tree: FlowNode, branchId: string, node: FlowNode): FlowNode {
  return editBranch(tree, branchId, (b) => ({ ...b, child: { ...node, child: b.child } }));
}

/** Removes a node; its child takes its place. The start node cannot be removed. */
export function removeNode(tree: FlowNode, id: string): FlowNode {
  if (tree.id === id) return tree;
  return mapChain(tree, (n) => (n.id === id ? (n.child ?? null) : undefined))!;
}

export function editBranch(
  tree: FlowNode,
  branchId: string,
  edit: (b: Branch) => Branch,
): FlowNode {
  return mapChain(tree, (n) =>
    n.type === 'branch' && n.branches.some((b) => b.id === branchId)
      ? {
          ...n,
          child: n.child,
          branches: n.branches.map((b) => (b.id === branchId ? edit(b) : b)),
        }
      : undefined,
  )!;
}

export function addBranch(tree: FlowNode, branchNodeId: string, name: string): FlowNode {
  return mapChain(tree, (n) =>
    n.id === branchNodeId && n.type === 'branch'
      ? {
          ...n,
          // A new conditional arm goes before the default one, which must stay last to read well.
          branches: [
            ...n.branches.filter((b) => !b.default),
            { id: newId('b'), name, condition: { field: '', op: 'eq', value: '' }, child: null },
            ...n.branches.filter((b) => b.default),
          ],
        }
      : undefined,
  )!;
}

export function removeBranch(tree: FlowNode, branchId: string): FlowNode {
  return mapChain(tree, (n) =>
    n.type === 'branch' && n.branches.some((b) => b.id === branchId)
      ? { ...n, branches: n.branches.filter((b) => b.id !== branchId) }
      : undefined,
  )!;
}

/** The tree every new flow starts from: a start node and one approval. */
export function initialTree(names: { start: string; approval: string }): FlowNode {
  return {
    id: 'start',
    name: names.start,
    type: 'start',
    child: {
      id: newId('approve'),
      name: names.approval,
      type: 'approval',
      assignee: { type: 'users', userIds: [] },
      mode: 'or',
      child: null,
    },
  };
}

/**
 * Sets the start node's definition-wide options (`autoApproveRepeats`, `resubmitTimeout`); an
 * option set to undefined is removed, so the stored tree says only what was chosen.
 */
export function patchStart(tree: FlowNode, patch: Partial<StartNode>): FlowNode {
  if (tree.type !== 'start') return tree;
  const next: Record<string, unknown> = { ...tree, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete next[key];
  return next as unknown as StartNode;
}
