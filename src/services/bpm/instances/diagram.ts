import { isTerminal, readsHidden, type FlowNode } from '../engine/index.js';
import type { Loaded } from '../runtime/runner.js';
import { hiddenFor, visibleForm, type Viewer } from './instance-view.js';

/**
 * A node's state in the diagram: `active` (its tasks are pending), `suspended` (the instance
 * stopped there), `done` (entered on the path taken, and left), `skipped` (in a branch that was
 * not taken, or never reached by an instance that has ended) or `pending` (not reached yet).
 */
export type DiagramState = 'done' | 'active' | 'suspended' | 'skipped' | 'pending';

/**
 * The frozen tree with each node's state, and the form as the viewer may see it. A branch
 * condition reading a field hidden from the viewer is redacted (`name` and `condition` null,
 * `redacted: true`): "salary > 10 000" tells the value's range. Which branch was taken stays
 * (who is on the route is not secret). The `hiddenFields` lists are for platform admins only.
 */
export function diagramOf(loaded: Loaded, viewer: Viewer) {
  const { state, tree } = loaded;
  const hidden = new Set(hiddenFor(tree, state, viewer));
  const showsHiddenLists = viewer.actor.platformAdmin && !viewer.actor.system;
  const pending = new Set(state.tasks.filter((t) => t.status === 'pending').map((t) => t.nodeId));
  const entered = new Set(state.path);
  const suspendedAt = state.status === 'suspended' ? state.suspendReason?.node_id : undefined;
  const ended = isTerminal(state.status);

  const stateOf = (node: FlowNode, untaken: boolean): DiagramState => {
    if (node.id === suspendedAt) return 'suspended';
    if (pending.has(node.id)) return 'active';
    if (entered.has(node.id)) return 'done';
    return untaken || ended ? 'skipped' : 'pending';
  };
  // Iterative over `child` links so a long chain never grows the stack; branches nest at most
  // MAX_TREE_DEPTH deep in a published tree.
  const mark = (first: FlowNode | null | undefined, untaken: boolean): unknown => {
    const out: Record<string, unknown>[] = [];
    for (let node = first; node; node = node.child) {
      const marked: Record<string, unknown> = { ...node, state: stateOf(node, untaken) };
      if (!showsHiddenLists) delete marked.hiddenFields;
      if (node.type === 'branch') {
        // A branch was taken when its chain was entered; with the branch node left behind and no
        // branch entered, the taken one was empty. Either way the others were not taken.
        const decided = entered.has(node.id) && node.id !== suspendedAt;
        marked.branches = node.branches.map((b) => ({
          ...b,
          // The name too: it is often the condition in words ("salary over 10 000").
          ...(readsHidden(b.condition, hidden)
            ? { name: null, condition: null, redacted: true }
            : {}),
          child: mark(b.child, untaken || (decided && !(b.child && entered.has(b.child.id)))),
        }));
      }
      out.push(marked);
    }
    for (let i = out.length - 1; i >= 0; i--) out[i]!.child = out[i + 1] ?? null;
    return out[0] ?? null;
  };
  return {
    tree: mark(tree, false),
    path: state.path,
    status: state.status,
    form: visibleForm(tree, state, viewer),
  };
}
