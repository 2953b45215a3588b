import { sql } from 'kysely';
import type { OAuthDb } from './oauth2.tables.js';

export interface StoredKey {
  kid: string;
  alg: string;
  private_jwk_encrypted: string;
  created_at: Date;
  retired_at: Date | null;
}

/** The current key(s) and retired keys still inside their publication window, newest first. */
export function listPublishedKeys(db: OAuthDb, keepRetiredMs: number) {
  return db
    .selectFrom('auth_oauth_signing_keys')
    .select(['kid', 'alg', 'private_jwk_encrypted', 'created_at', 'retired_at'])
    .where((eb) =>
      eb.or([
        eb('retired_at', 'is', null),
        eb('retired_at', '>', sql<Date>`now() - make_interval(secs => ${keepRetiredMs / 1000})`),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute() as Promise<StoredKey[]>;
}

export async function countKeys(db: OAuthDb): Promise<number> {
  const row = await db
    .selectFrom('auth_oauth_signing_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Adds a key; with `retireOthers` every current key becomes retired in the same transaction
 * (rotation). Serialised by an advisory lock so two replicas starting together create one key.
 */
export async function addKey(
  db: OAuthDb,
  key: { kid: string; alg: string; publicJwk: object; privateJwkEncrypted: string },
  mode: 'first' | 'rotate',
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(727014)`.execute(trx);
    if (mode === 'first') {
      const existing = await trx
        .selectFrom('auth_oauth_signing_keys')
        .select('kid')
        .limit(1)
        .executeTakeFirst();
      if (existing) return false;
    } else {
      await trx
        .updateTable('auth_oauth_signing_keys')
        .set({ retired_at: sql<Date>`now()` })
        .where('retired_at', 'is', null)
        .execute();
    }
    await trx
      .insertInto('auth_oauth_signing_keys')
      .values({
        kid: key.kid,
        alg: key.alg,
        public_jwk: JSON.stringify(key.publicJwk),
        private_jwk_encrypted: key.privateJwkEncrypted,
      })
      .execute();
    return true;
  });
}
