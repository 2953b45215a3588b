import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Cache } from '../../platform/cache/cache.js';
import type { LookasideCache } from '../../platform/cache/fail-open.js';
import { normalizePermissions } from '../../platform/auth/principal.js';
import { DependencyDownError } from '../../platform/dependency-errors.js';
import type { DirectoryUser } from './directory.js';
import type { IdentityDb } from './identity.tables.js';
import { USER_COLUMNS } from './users/users.repo.js';

/**
 * The user cache: one entry per user (`iam:user:<id>`), read by forward-auth and by the engine's
 * directory (assignees, initiators), dropped by identity after every committed change that
 * affects a user (the user, their roles, a role they hold, their tenant).
 */

/** Bounds staleness when an invalidation is missed (separate processes without Redis). */
export const USER_CACHE_TTL_MS = 30_000;

export const userCacheKey = (userId: number) => `iam:user:${userId}`;

/**
 * Drops the cached entries of users whose rights changed. While the cache is down the change
 * still stands (it is committed): the entries expire within USER_CACHE_TTL_MS on their own.
 */
export async function invalidateUsers(
  cache: Pick<Cache, 'del'>,
  userIds: Iterable<number>,
): Promise<void> {
  const keys = [...new Set(userIds)].map(userCacheKey);
  if (keys.length === 0) return;
  await cache.del(...keys).catch((err: unknown) => {
    if (!(err instanceof DependencyDownError)) throw err;
  });
}

/**
 * Users by id as the cache holds them, with their roles, in one statement. `status` is
 * `disabled` while the user's tenant is disabled. Users that do not exist are left out.
 */
export async function loadUsers(db: IdentityDb, ids: readonly number[]): Promise<DirectoryUser[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('iam_users')
    .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
    .select((eb) => [
      ...USER_COLUMNS,
      'iam_users.session_version',
      'iam_tenants.status as tenant_status',
      jsonArrayFrom(
        eb
          .selectFrom('iam_user_roles')
          .innerJoin('iam_roles', 'iam_roles.id', 'iam_user_roles.role_id')
          .select(['iam_roles.id', 'iam_roles.code', 'iam_roles.permissions'])
          .whereRef('iam_user_roles.user_id', '=', 'iam_users.id')
          .whereRef('iam_roles.tenant_id', '=', 'iam_users.tenant_id')
          .orderBy('iam_roles.id'),
      ).as('roles'),
    ])
    .where('iam_users.id', 'in', [...ids])
    .execute();
  return rows.map(({ tenant_status: tenantStatus, roles, ...user }) => ({
    ...user,
    // A disabled tenant disables every user in it: forward-auth and refresh refuse them.
    status: tenantStatus === 'active' ? user.status : 'disabled',
    roles: roles.map((r) => r.code).sort(),
    role_ids: roles.map((r) => Number(r.id)),
    permissions: normalizePermissions(roles.flatMap((r) => r.permissions)),
  }));
}

/** An entry written by a version that cached no role ids is read again (a miss). */
function parseEntry(text: string | null): DirectoryUser | undefined {
  if (!text) return undefined;
  const user = JSON.parse(text) as DirectoryUser;
  return Array.isArray(user.role_ids) ? user : undefined;
}

/**
 * Users by id through the cache: the entries found there, and the others read in one statement
 * on `db` (the caller's transaction, so a caller holding a connection never waits for a second
 * one) and cached. Users that do not exist are left out, and not cached.
 */
export async function cachedUsers(
  db: IdentityDb,
  cache: LookasideCache,
  ids: readonly number[],
): Promise<Map<number, DirectoryUser>> {
  const wanted = [...new Set(ids)];
  const entries = await Promise.all(wanted.map((id) => cache.get(userCacheKey(id))));
  const found = new Map<number, DirectoryUser>();
  const missing: number[] = [];
  wanted.forEach((id, i) => {
    const user = parseEntry(entries[i] ?? null);
    if (user) found.set(id, user);
    else missing.push(id);
  });
  for (const user of await loadUsers(db, missing)) {
    found.set(user.id, user);
    await cache.set(userCacheKey(user.id), JSON.stringify(user), USER_CACHE_TTL_MS);
  }
  return found;
}
