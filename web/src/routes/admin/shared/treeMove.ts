/**
 * Moving an entry of a sorted tree (departments, menus) by drag and drop: where it lands, and
 * the few `PUT`s that say so (its new parent, and a `sort` for each sibling whose place
 * changed), so the server's order (`sort`, then id) shows what the person dropped.
 */

/** A tree entry as the server nests them: ordered by `sort`, then id. */
export interface SortedNode {
  id: number;
  sort: number;
  children?: SortedNode[] | null;
}

export type DropPlace = 'inside' | 'before' | 'after';

/** One change to send: the moved entry's parent and place, or a sibling's new place. */
export interface SortChange {
  id: number;
  sort: number;
  /** Present for the moved entry only: null is the top level. */
  parent_id?: number | null;
}

/** The gap between two siblings' `sort` after a move, so a later insert has room. */
export const SORT_STEP = 10;

interface Found {
  node: SortedNode;
  parentId: number | null;
  siblings: SortedNode[];
}

function find(level: SortedNode[], id: number, parentId: number | null = null): Found | null {
  for (const node of level) {
    if (node.id === id) return { node, parentId, siblings: level };
    const below = find(node.children ?? [], id, node.id);
    if (below) return below;
  }
  return null;
}

function contains(node: SortedNode, id: number): boolean {
  return (node.children ?? []).some((c) => c.id === id || contains(c, id));
}

/**
 * antd Tree's drop event in words: onto the entry (`dropToGap` false) is inside it; into a gap,
 * `dropPosition` is the gap's index among the siblings, which `pos` ("0-2-1") places the
 * target at: one less is before it, otherwise after it.
 */
export function dropPlaceOf(dropToGap: boolean, dropPosition: number, pos: string): DropPlace {
  if (!dropToGap) return 'inside';
  const index = Number(pos.split('-').pop());
  return dropPosition - index === -1 ? 'before' : 'after';
}

/**
 * The changes that move `dragId` before, after or (as the last child) inside `targetId`; null
 * when nothing would change or the move is impossible (onto itself, into its own subtree, an
 * id the tree does not have).
 */
export function planMove(
  roots: SortedNode[],
  dragId: number,
  targetId: number,
  place: DropPlace,
): SortChange[] | null {
  const drag = find(roots, dragId);
  const target = find(roots, targetId);
  if (!drag || !target || dragId === targetId || contains(drag.node, targetId)) return null;
  const parentId = place === 'inside' ? target.node.id : target.parentId;
  const level = place === 'inside' ? (target.node.children ?? []) : target.siblings;
  const order = level.filter((n) => n.id !== dragId);
  let at = order.length;
  if (place !== 'inside') {
    at = order.findIndex((n) => n.id === targetId) + (place === 'after' ? 1 : 0);
  }
  order.splice(at, 0, drag.node);
  const moved = parentId !== drag.parentId;
  const sameOrder = !moved && order.every((n, i) => n.id === level[i]?.id);
  if (sameOrder) return null;
  const changes: SortChange[] = [];
  order.forEach((node, i) => {
    const sort = (i + 1) * SORT_STEP;
    if (node.id === dragId) changes.push({ id: node.id, sort, parent_id: parentId });
    else if (node.sort !== sort) changes.push({ id: node.id, sort });
  });
  return changes;
}
