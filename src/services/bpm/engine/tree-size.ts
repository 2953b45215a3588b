import type { FieldProblem } from '../../../platform/errors.js';

/**
 * Size limits of a designer's documents, checked iteratively before anything walks, stores or
 * serializes them (JSON.stringify and every recursive walker would overflow the stack on a tree
 * thousands of levels deep). A published tree is well inside them.
 */

/** Nodes in a tree (every node of every branch, the start node included). */
export const MAX_TREE_NODES = 500;
/** Branch nodes nested inside branches (a branch node at the top level is depth 1). */
export const MAX_BRANCH_DEPTH = 50;
/** JSON nesting of `node_tree` or `form_schema` (a 500-node chain is 500 levels). */
export const MAX_DOCUMENT_DEPTH = 1_000;

/** Whether `value` nests objects and arrays deeper than `max` levels. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

const problem = (field: string, message: string): FieldProblem[] => [
  { field, rule: 'range', message },
];

/**
 * `[]` when the node tree is within the limits; else one `range` problem on `node_tree`. Walks
 * `child` links and `branches[].child` without recursion; anything else is left to validateTree.
 */
export function treeSizeProblems(tree: unknown): FieldProblem[] {
  if (nestedDeeperThan(tree, MAX_DOCUMENT_DEPTH)) {
    return problem('node_tree', `node_tree is nested deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  }
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[tree, 0]];
  while (stack.length > 0) {
    const [node, branchDepth] = stack.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    if (++nodes > MAX_TREE_NODES) {
      return problem('node_tree', `the tree has more than ${MAX_TREE_NODES} nodes`);
    }
    const { child, branches } = node as { child?: unknown; branches?: unknown };
    stack.push([child, branchDepth]);
    if (Array.isArray(branches)) {
      if (branchDepth + 1 > MAX_BRANCH_DEPTH) {
        return problem('node_tree', `branches are nested deeper than ${MAX_BRANCH_DEPTH} levels`);
      }
      for (const b of branches) {
        if (b !== null && typeof b === 'object') {
          stack.push([(b as { child?: unknown }).child, branchDepth + 1]);
        }
      }
    }
  }
  return [];
}

/** Both documents of a definition checked for size; `[]` when both are within the limits. */
export function definitionSizeProblems(formSchema: unknown, nodeTree: unknown): FieldProblem[] {
  const form = nestedDeeperThan(formSchema, MAX_DOCUMENT_DEPTH)
    ? problem('form_schema', `form_schema is nested deeper than ${MAX_DOCUMENT_DEPTH} levels`)
    : [];
  return [...form, ...(nodeTree === undefined ? [] : treeSizeProblems(nodeTree))];
}
