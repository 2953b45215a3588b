import { insertLoginEvent, type LoginEventRow } from './login-outbox.js';
import { sql, type Kysely } from 'kysely';
import type { AuthTables } from './auth.tables.js';
import { deleteUserArtifacts } from './oauth2/artifacts.repo.js';
import type { OAuthTables } from './oauth2/oauth2.tables.js';

export interface NewSession {
  id: number;
  tenant_id: number;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  device_id: string | null;
  user_version: number;
  expires_at: Date;
}

/** What refresh and forward-auth need to know about a session. */
export interface SessionState {
  user_id: number;
  tenant_id: number;
  revoked: boolean;
  user_version: number;
  expires_at: Date;
}

export interface ConsumedToken {
  id: number;
  session_id: number;
}

export interface SessionRepo {
  /** Opens a session and, in the same transaction, writes its sign-in's event to the outbox. */
  createSession(session: NewSession, loginEvent: LoginEventRow): Promise<void>;
  insertRefreshToken(
    sessionId: number,
    hash: string,
    expiresAt: Date,
    parentId: number | null,
  ): Promise<void>;
  /**
   * The one conditional UPDATE that wins a refresh: of concurrent calls with one token, exactly
   * one finds `consumed_at IS NULL` and sets it. A revoked or ended session's tokens never win.
   */
  consumeRefreshToken(hash: string): Promise<ConsumedToken | undefined>;
  findRefreshToken(
    hash: string,
  ): Promise<
    { session_id: number; consumed_at: Date | null; expires_at: Date; revoked: boolean } | undefined
  >;
  sessionOwner(sessionId: number): Promise<SessionState | undefined>;
  revokeSession(sessionId: number, reason: string): Promise<void>;
  /**
   * Revokes every session of the user but `exceptSessionId`, and deletes every OAuth grant,
   * token and provider session of theirs: none of those belongs to the session kept.
   */
  revokeUserSessions(userId: number, reason: string, exceptSessionId?: number): Promise<number[]>;
  /** Deletes every OAuth grant, token and provider session of the user. */
  endOAuthGrants(userId: number): Promise<void>;
}

export function createSessionRepo(db: Kysely<AuthTables>): SessionRepo {
  return {
    async createSession(session, loginEvent) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('auth_sessions').values(session).execute();
        await insertLoginEvent(trx, loginEvent);
      });
    },

    async insertRefreshToken(sessionId, hash, expiresAt, parentId) {
      await db
        .insertInto('auth_refresh_tokens')
        .values({
          session_id: sessionId,
          token_hash: hash,
          expires_at: expiresAt,
          parent_id: parentId,
        })
        .execute();
    },

    consumeRefreshToken: (hash) =>
      db
        .updateTable('auth_refresh_tokens')
        .set({ consumed_at: sql<Date>`now()` })
        .where('token_hash', '=', hash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('auth_sessions')
              .select(sql`1`.as('one'))
              .whereRef('auth_sessions.id', '=', 'auth_refresh_tokens.session_id')
              .where('auth_sessions.revoked_at', 'is', null)
              .where('auth_sessions.expires_at', '>', sql<Date>`now()`),
          ),
        )
        .returning(['id', 'session_id'])
        .executeTakeFirst(),

    findRefreshToken: (hash) =>
      db
        .selectFrom('auth_refresh_tokens')
        .innerJoin('auth_sessions', 'auth_sessions.id', 'auth_refresh_tokens.session_id')
        .select([
          'auth_refresh_tokens.session_id',
          'auth_refresh_tokens.consumed_at',
          'auth_refresh_tokens.expires_at',
          sql<boolean>`auth_sessions.revoked_at IS NOT NULL`.as('revoked'),
        ])
        .where('auth_refresh_tokens.token_hash', '=', hash)
        .executeTakeFirst(),

    sessionOwner: (sessionId) =>
      db
        .selectFrom('auth_sessions')
        .select([
          'user_id',
          'tenant_id',
          'user_version',
          'expires_at',
          sql<boolean>`revoked_at IS NOT NULL`.as('revoked'),
        ])
        .where('id', '=', sessionId)
        .executeTakeFirst(),

    async revokeSession(sessionId, reason) {
      await db
        .updateTable('auth_sessions')
        .set({ revoked_at: sql<Date>`now()`, revoked_reason: reason })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async revokeUserSessions(userId, reason, exceptSessionId) {
      let query = db
        .updateTable('auth_sessions')
        .set({ revoked_at: sql<Date>`now()`, revoked_reason: reason })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
      const rows = await query.returning('id').execute();
      await deleteUserArtifacts(db.withTables<OAuthTables>(), userId);
      return rows.map((r) => r.id);
    },

    endOAuthGrants: (userId) => deleteUserArtifacts(db.withTables<OAuthTables>(), userId),
  };
}
