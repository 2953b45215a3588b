import { useState } from 'react';

/**
 * Which entries of an admin tree are open: all of them, except those the person folded, so an
 * entry that gains children (made below, or dropped onto) shows them at once.
 */
export function useTreeExpansion(allKeys: readonly number[]) {
  const [folded, setFolded] = useState<ReadonlySet<number>>(new Set());
  return {
    expandedKeys: allKeys.filter((k) => !folded.has(k)),
    onExpand: (keys: React.Key[]) => {
      const open = new Set(keys.map(Number));
      setFolded(new Set(allKeys.filter((k) => !open.has(k))));
    },
  };
}
