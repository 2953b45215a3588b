import type { Branch, FlowNode, NodeState } from '../api/bpm';

/** Visits every node of the tree, branches' children included, in designer order. */
export function walkTree(node: FlowNode | null | undefined, visit: (n: FlowNode) => void): void {
  let current: FlowNode | null | undefined = node;
  while (current) {
    visit(current);
    if (current.type === 'branch') for (const b of current.branches) walkTree(b.child, visit);
    current = current.child;
  }
}

export interface GraphNode {
  id: string;
  kind: FlowNode['type'] | 'branch-arm' | 'end';
  /** null for a branch arm whose condition reads a field hidden from the viewer. */
  name: string | null;
  state: NodeState | undefined;
  node?: FlowNode;
  branch?: Branch;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
}

const ENTERED: ReadonlySet<NodeState | undefined> = new Set(['done', 'active', 'suspended']);

/**
 * Whether a branch arm was taken, from the states the server gives the nodes (`done` taken,
 * `skipped` not): an arm whose first node was entered was taken; once the branch node is left
 * with no arm's chain entered, the empty arm was the one taken. Undecided: no state.
 */
export function armState(
  branchNode: FlowNode & { type: 'branch' },
  arm: Branch,
): NodeState | undefined {
  if (arm.child) {
    if (ENTERED.has(arm.child.state)) return 'done';
    return arm.child.state === 'skipped' ? 'skipped' : undefined;
  }
  if (branchNode.state !== 'done') return undefined;
  const anotherEntered = branchNode.branches.some(
    (b) => b !== arm && b.child && ENTERED.has(b.child.state),
  );
  return anotherEntered ? 'skipped' : 'done';
}

/**
 * The node tree as a graph: a branch node fans out to one arm per branch; every arm's chain
 * joins again at the branch node's next node (or the end).
 */
export function treeToGraph(tree: FlowNode): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const edge = (source: string, target: string) =>
    edges.push({ id: `${source}->${target}`, source, target });

  /** Lays out a chain; answers the ids whose outgoing edge goes to whatever follows the chain. */
  function chain(node: FlowNode | null | undefined, from: string[]): string[] {
    let tails = from;
    let current = node;
    while (current) {
      nodes.push({
        id: current.id,
        kind: current.type,
        name: current.name,
        state: current.state,
        node: current,
      });
      for (const t of tails) edge(t, current.id);
      if (current.type === 'branch') {
        const joined: string[] = [];
        for (const b of current.branches) {
          const armId = `${current.id}/${b.id}`;
          nodes.push({
            id: armId,
            kind: 'branch-arm',
            name: b.name,
            state: b.state ?? armState(current, b),
            branch: b,
          });
          edge(current.id, armId);
          joined.push(...chain(b.child, [armId]));
        }
        tails = joined;
      } else tails = [current.id];
      current = current.child;
    }
    return tails;
  }
  const tails = chain(tree, []);
  nodes.push({ id: '__end', kind: 'end', name: '', state: undefined });
  for (const t of tails) edge(t, '__end');
  return { nodes, edges };
}
