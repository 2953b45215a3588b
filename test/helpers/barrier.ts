import pg from 'pg';
import { it } from 'vitest';

/**
 * How many rounds each race test runs: 1 in `.ci/run`'s passes, 200 in the whole fault matrix
 * (`npm run test:matrix`, docs/fault-matrix.md).
 */
export const RACE_ROUNDS = Math.max(1, Math.floor(Number(process.env.RACE_ROUNDS ?? 1)) || 1);

/**
 * A race test: `race` makes its own fresh state and races on it, RACE_ROUNDS times in a row;
 * the first round that breaks the rule fails the test.
 */
export function raceIt(name: string, race: () => Promise<void>): void {
  it(name, { timeout: 30_000 * RACE_ROUNDS }, async () => {
    for (let round = 0; round < RACE_ROUNDS; round++) await race();
  });
}

/**
 * A race barrier on real PostgreSQL: holds a row lock from a separate session, lets the caller
 * fire its requests, waits until `minWaiting` sessions block on the lock, then releases it, so
 * the requests really contend instead of running one after another. On PGlite (one session) it
 * just fires the requests.
 */
export async function raceOnRowLock<T>(
  databaseUrl: string | undefined,
  lockSql: string,
  params: unknown[],
  fire: () => Promise<T>,
  minWaiting: number,
): Promise<T> {
  if (!databaseUrl) return fire();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(lockSql, params);
    const fired = fire();
    const deadline = Date.now() + 10_000;
    for (;;) {
      // Statistics are a per-transaction snapshot; without clearing it the count never moves.
      await client.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (Number(rows[0]!.n) >= minWaiting || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await client.query('COMMIT');
    return await fired;
  } finally {
    await client.end();
  }
}
