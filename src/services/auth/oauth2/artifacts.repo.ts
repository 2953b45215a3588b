import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { OAuthDb } from './oauth2.tables.js';

/** Ids are stored and looked up only as their SHA-256: a copy of the table holds no usable token. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface ArtifactRow {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
}

export async function upsertArtifact(
  db: OAuthDb,
  row: {
    model: string;
    id: string;
    payload: Record<string, unknown>;
    grantId: string | undefined;
    uid: string | undefined;
    clientId: string | undefined;
    expiresAt: Date | null;
    /** The user's session version to bind the artefact to (grants and provider sessions). */
    userVersion?: number | undefined;
  },
): Promise<void> {
  const payload =
    row.userVersion === undefined ? row.payload : { ...row.payload, sv: row.userVersion };
  const values = {
    model: row.model,
    id_hash: sha256(row.id),
    payload: JSON.stringify(payload),
    grant_hash: row.grantId ? sha256(row.grantId) : null,
    uid_hash: row.uid ? sha256(row.uid) : null,
    client_id: row.clientId ?? null,
    expires_at: row.expiresAt,
  };
  await db
    .insertInto('auth_oauth_artifacts')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['model', 'id_hash']).doUpdateSet({
        // A saved-again grant or session keeps the version it was bound to, for the same account
        // and sign-in.
        payload: sql<string>`CASE
          WHEN jsonb_exists(auth_oauth_artifacts.payload, 'sv')
            AND auth_oauth_artifacts.payload->'accountId' = excluded.payload->'accountId'
            AND auth_oauth_artifacts.payload->'loginTs' IS NOT DISTINCT FROM excluded.payload->'loginTs'
          THEN excluded.payload || jsonb_build_object('sv', auth_oauth_artifacts.payload->'sv')
          ELSE excluded.payload END`,
        grant_hash: values.grant_hash,
        uid_hash: values.uid_hash,
        client_id: values.client_id,
        expires_at: values.expires_at,
      }),
    )
    .execute();
}

/** An unexpired artefact by its id. */
export function findArtifact(db: OAuthDb, model: string, id: string) {
  return db
    .selectFrom('auth_oauth_artifacts')
    .select(['payload', 'consumed_at'])
    .where('model', '=', model)
    .where('id_hash', '=', sha256(id))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirst();
}

export function findArtifactByUid(db: OAuthDb, model: string, uid: string) {
  return db
    .selectFrom('auth_oauth_artifacts')
    .select(['id_hash', 'payload', 'consumed_at'])
    .where('model', '=', model)
    .where('uid_hash', '=', sha256(uid))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirst();
}

/**
 * Marks an artefact consumed with one conditional UPDATE: of two concurrent consumers exactly
 * one gets the row back. Returns the grant hash of the winner, or `lost` with the grant hash
 * when the artefact was already consumed.
 */
export async function consumeArtifact(db: OAuthDb, model: string, id: string) {
  const idHash = sha256(id);
  const won = await db
    .updateTable('auth_oauth_artifacts')
    .set({ consumed_at: sql<Date>`now()` })
    .where('model', '=', model)
    .where('id_hash', '=', idHash)
    .where('consumed_at', 'is', null)
    .returning('grant_hash')
    .executeTakeFirst();
  if (won) return { won: true as const, grantHash: won.grant_hash };
  const seen = await db
    .selectFrom('auth_oauth_artifacts')
    .select('grant_hash')
    .where('model', '=', model)
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return { won: false as const, grantHash: seen?.grant_hash ?? null };
}

export async function deleteArtifact(db: OAuthDb, model: string, id: string): Promise<void> {
  await db
    .deleteFrom('auth_oauth_artifacts')
    .where('model', '=', model)
    .where('id_hash', '=', sha256(id))
    .execute();
}

/** Whether an access token of the grant has been stored (what a code exchange issues). */
export async function grantHasAccessToken(db: OAuthDb, grantHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('auth_oauth_artifacts')
    .select('id_hash')
    .where('grant_hash', '=', grantHash)
    .where('model', '=', 'AccessToken')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every artefact of a grant (tokens, codes, the grant itself): the whole family at once. */
export async function deleteGrantArtifacts(db: OAuthDb, grantHash: string): Promise<void> {
  await db
    .deleteFrom('auth_oauth_artifacts')
    .where((eb) =>
      eb.or([
        eb('grant_hash', '=', grantHash),
        eb.and([eb('model', '=', 'Grant'), eb('id_hash', '=', grantHash)]),
      ]),
    )
    .execute();
}

/** The session version a grant or provider session is bound to; undefined when none. */
export async function boundUserVersion(
  db: OAuthDb,
  model: 'Grant' | 'Session',
  id: string,
): Promise<number | undefined> {
  const row = await findArtifact(db, model, id);
  const version = row?.payload.sv;
  return typeof version === 'number' ? version : undefined;
}

/**
 * Every grant, code, token and provider session of a user: what ends their platform sessions
 * ends what they granted to OAuth clients too.
 */
export async function deleteUserArtifacts(db: OAuthDb, userId: number): Promise<void> {
  await db
    .deleteFrom('auth_oauth_artifacts')
    .where(sql<string>`payload->>'accountId'`, '=', String(userId))
    .execute();
}

/** Every token and grant of a client (the client was deleted or its secret rotated away). */
export async function deleteClientArtifacts(db: OAuthDb, clientId: string): Promise<void> {
  await db.deleteFrom('auth_oauth_artifacts').where('client_id', '=', clientId).execute();
}

export async function pruneExpiredArtifacts(db: OAuthDb): Promise<number> {
  const result = await db
    .deleteFrom('auth_oauth_artifacts')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
