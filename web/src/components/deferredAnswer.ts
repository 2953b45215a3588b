import { useDeferredValue } from 'react';

/**
 * A query's result (or its data), rendered in a transition. React Query hands answers over through
 * useSyncExternalStore, whose updates React renders synchronously: a card mounting its figures
 * and lists when its answer lands would be one long task, and the dashboard's answers land
 * together. Deferred, the synchronous pass renders the card as it was (loading) and the new
 * content renders in slices the browser can interrupt between.
 */
export function useDeferredAnswer<T>(result: T): T {
  return useDeferredValue(result);
}
