import { sql, type Kysely } from 'kysely';
import type { AuthTables } from '../auth.tables.js';

export interface SessionRow {
  id: number;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  device_id: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

/**
 * The signed-in sessions of a user in a tenant: not revoked and holding a live refresh token.
 * Last used = the newest refresh token (each refresh issues one).
 */
export async function listLiveSessions(
  db: Kysely<AuthTables>,
  tenantId: number,
  userId: number,
): Promise<SessionRow[]> {
  const rows = await db
    .selectFrom('auth_sessions as s')
    .select([
      's.id',
      's.user_id',
      's.ip',
      's.user_agent',
      's.device_id',
      's.created_at',
      sql<Date | null>`(SELECT max(rt.created_at) FROM auth_refresh_tokens rt WHERE rt.session_id = s.id)`.as(
        'last_used_at',
      ),
    ])
    .where('s.tenant_id', '=', tenantId)
    .where('s.user_id', '=', userId)
    .where('s.revoked_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('auth_refresh_tokens as live')
          .select(sql`1`.as('one'))
          .whereRef('live.session_id', '=', 's.id')
          .where('live.consumed_at', 'is', null)
          .where('live.expires_at', '>', sql<Date>`now()`),
      ),
    )
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), user_id: Number(r.user_id) }));
}

/** A live session of the tenant, with its owner (tenant scope in the query). */
export async function findLiveSession(db: Kysely<AuthTables>, tenantId: number, sessionId: number) {
  const row = await db
    .selectFrom('auth_sessions')
    .select(['id', 'user_id'])
    .where('id', '=', sessionId)
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && { id: Number(row.id), userId: Number(row.user_id) };
}
