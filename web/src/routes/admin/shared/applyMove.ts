import type { SortChange } from './treeMove';

/**
 * Sends a planned move: the moved entry first (a refused move, a cycle say, then changes
 * nothing else), then each sibling's new place, one after the other.
 */
export async function applyMove(
  changes: SortChange[],
  update: (v: {
    id: number;
    body: { sort: number; parent_id?: number | null };
  }) => Promise<unknown>,
): Promise<void> {
  const ordered = [...changes].sort((a, b) => Number('parent_id' in b) - Number('parent_id' in a));
  for (const change of ordered) {
    const { id, ...body } = change;
    await update({ id, body });
  }
}
