import type { Kysely, Transaction } from 'kysely';

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock
const MAX_ATTEMPTS = 5;

/**
 * Runs `work` in one transaction, retrying serialization failures and deadlocks with jittered
 * backoff. The one place the platform retries on those codes.
 */
export async function inTransaction<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= MAX_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, 2 ** attempt * 5 + Math.random() * 10));
    }
  }
}

/** PostgreSQL's unique-violation code, for mapping a duplicate to a 409. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return (
    constraint === undefined ||
    e.constraint === constraint ||
    (e.message ?? '').includes(constraint)
  );
}
