/** Names by id for the ids the identity lists answer (a user's roles, posts, department). */
export function namesById<T extends { id: number }>(
  list: readonly T[] | undefined,
  name: (item: T) => string,
): Map<number, string> {
  return new Map((list ?? []).map((item) => [item.id, name(item)]));
}

/** Every entry of a nested tree, depth first. */
export function flattenTree<T extends { children?: T[] | null }>(roots: readonly T[]): T[] {
  return roots.flatMap((node) => [node, ...flattenTree(node.children ?? [])]);
}
