/**
 * Hidden form fields (a node's `hiddenFields`): which keys to remove from a form before showing
 * it to the actors of some nodes, and the removal itself.
 */
import type { FlowNode, FormData } from './types.js';

/**
 * Every node of the tree in document order: a node, then each of its branches' chains in
 * order, then its `child`. Iterative, so a long chain never grows the stack.
 */
export function collectNodes(tree: FlowNode): FlowNode[] {
  const nodes: FlowNode[] = [];
  const stack: FlowNode[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as FlowNode;
    nodes.push(node);
    // Pushed in reverse so they pop in document order: branches first, then the child.
    if (node.child) stack.push(node.child);
    if (node.type === 'branch') {
      for (let i = node.branches.length - 1; i >= 0; i--) {
        const child = node.branches[i]?.child;
        if (child) stack.push(child);
      }
    }
  }
  return nodes;
}

/**
 * The union of the `hiddenFields` of the nodes with these ids, each key once, in the order
 * first met; ids that name no node are ignored.
 */
export function hiddenFieldsOf(tree: FlowNode, nodeIds: string[]): string[] {
  const wanted = new Set(nodeIds);
  const hidden = new Set<string>();
  for (const node of collectNodes(tree)) {
    if (!wanted.has(node.id)) continue;
    for (const key of node.hiddenFields ?? []) hidden.add(key);
  }
  return [...hidden];
}

/** A copy of the form without the hidden keys; the form itself is left untouched. */
export function stripHidden(form: FormData, hidden: string[]): FormData {
  if (hidden.length === 0) return { ...form };
  const drop = new Set(hidden);
  return Object.fromEntries(Object.entries(form).filter(([key]) => !drop.has(key)));
}

/**
 * Whether a branch condition reads any of the `hidden` fields, at any depth of its all/any
 * groups: such a condition (and the name of the branch it chose) would tell a viewer who may
 * not see the field something about its value. Iterative; a malformed member reads nothing.
 */
export function readsHidden(condition: unknown, hidden: ReadonlySet<string>): boolean {
  if (hidden.size === 0) return false;
  const stack: unknown[] = [condition];
  while (stack.length > 0) {
    const c = stack.pop();
    if (typeof c !== 'object' || c === null) continue;
    if ('field' in c && typeof c.field === 'string' && hidden.has(c.field)) return true;
    if ('all' in c && Array.isArray(c.all)) stack.push(...(c.all as unknown[]));
    if ('any' in c && Array.isArray(c.any)) stack.push(...(c.any as unknown[]));
  }
  return false;
}

/** Whether any branch of a branch node decides on a hidden field. */
export function branchReadsHidden(node: FlowNode, hidden: ReadonlySet<string>): boolean {
  return node.type === 'branch' && node.branches.some((b) => readsHidden(b.condition, hidden));
}
