import type { Department } from '../api/people';

export interface DeptTreeNode {
  value: number;
  title: string;
  children: DeptTreeNode[];
}

/**
 * The flat department list as a tree for a TreeSelect: children under their parent, by name; a
 * department whose parent is not in the list (or that would close a loop) sits at the top.
 */
export function deptTree(list: readonly Department[]): DeptTreeNode[] {
  const nodes = new Map<number, DeptTreeNode>();
  for (const d of list) nodes.set(d.id, { value: d.id, title: d.name, children: [] });
  const parentOf = new Map(list.map((d) => [d.id, d.parent_id]));
  /** Whether walking up from `id` reaches `id` again. */
  const inLoop = (id: number) => {
    const seen = new Set<number>();
    let at: number | null | undefined = id;
    while (at !== null && at !== undefined && nodes.has(at)) {
      if (seen.has(at)) return at === id;
      seen.add(at);
      at = parentOf.get(at);
    }
    return false;
  };
  const roots: DeptTreeNode[] = [];
  for (const d of list) {
    const node = nodes.get(d.id)!;
    const parent = d.parent_id === null ? undefined : nodes.get(d.parent_id);
    if (parent && parent !== node && !inLoop(d.id)) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (level: DeptTreeNode[]) => {
    level.sort((a, b) => a.title.localeCompare(b.title));
    for (const n of level) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** Department names by id. */
export function deptNames(list: readonly Department[] | undefined): Map<number, string> {
  return new Map((list ?? []).map((d) => [d.id, d.name]));
}
