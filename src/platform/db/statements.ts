import { AsyncLocalStorage } from 'node:async_hooks';

/** The statements one unit of work (an HTTP request) sent to the database. */
export interface StatementTally {
  count: number;
}

const scope = new AsyncLocalStorage<StatementTally>();

/**
 * Runs `fn` with `tally` as the current tally: every statement sent within it, and within the
 * asynchronous work it starts, adds one. Work outside any tally (background jobs) is not counted.
 */
export function withStatementTally<T>(tally: StatementTally, fn: () => T): T {
  return scope.run(tally, fn);
}

/** Called for every statement the database handle sends (Kysely's log hook). */
export function countStatement(): void {
  const tally = scope.getStore();
  if (tally) tally.count++;
}
