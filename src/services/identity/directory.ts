import type { Kysely } from 'kysely';
import type { Cache } from '../../platform/cache/cache.js';
import { normalizePermissions } from '../../platform/auth/principal.js';
import type { IdentityTables } from './identity.tables.js';

/** What sign-in needs to check a password. */
export interface Credentials {
  id: number;
  tenant_id: number;
  username: string;
  password_hash: string;
  status: 'active' | 'disabled';
}

/** A user as forward-auth and `/me` see them: identity plus effective permissions. */
export interface DirectoryUser {
  id: number;
  tenant_id: number;
  username: string;
  nickname: string;
  dept_id: number | null;
  status: 'active' | 'disabled';
  is_platform_admin: boolean;
  must_change_password: boolean;
  roles: string[];
  permissions: string[];
}

/**
 * The identity service's typed interface for the other services (auth today, the BPM engine's
 * assignee resolution later). SQL now; it could become an HTTP client without its callers changing.
 */
export interface IdentityDirectory {
  findTenant(code: string): Promise<{ id: number; status: 'active' | 'disabled' } | undefined>;
  findCredentials(tenantId: number, username: string): Promise<Credentials | undefined>;
  /**
   * Cached; identity invalidates the entry whenever the user, their roles, a role or their tenant
   * changes. `status` is `disabled` while the user's tenant is disabled.
   */
  findUser(userId: number): Promise<DirectoryUser | undefined>;
  passwordHashOf(userId: number): Promise<string | undefined>;
  setPassword(userId: number, passwordHash: string): Promise<void>;
}

/** Bounds staleness when an invalidation is missed (separate processes without Redis). */
const USER_CACHE_TTL_MS = 30_000;

export const userCacheKey = (userId: number) => `iam:user:${userId}`;

export async function invalidateUsers(cache: Cache, userIds: Iterable<number>): Promise<void> {
  const keys = [...new Set(userIds)].map(userCacheKey);
  if (keys.length > 0) await cache.del(...keys);
}

export function createIdentityDirectory(
  db: Kysely<IdentityTables>,
  cache: Cache,
): IdentityDirectory {
  return {
    findTenant: (code) =>
      db
        .selectFrom('iam_tenants')
        .select(['id', 'status'])
        .where('code', '=', code)
        .executeTakeFirst(),

    findCredentials: (tenantId, username) =>
      db
        .selectFrom('iam_users')
        .select(['id', 'tenant_id', 'username', 'password_hash', 'status'])
        .where('tenant_id', '=', tenantId)
        .where('username', '=', username)
        .executeTakeFirst(),

    async findUser(userId) {
      const cached = await cache.get(userCacheKey(userId));
      if (cached) return JSON.parse(cached) as DirectoryUser;
      const row = await db
        .selectFrom('iam_users')
        .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
        .select([
          'iam_users.id',
          'iam_users.tenant_id',
          'iam_users.username',
          'iam_users.nickname',
          'iam_users.dept_id',
          'iam_users.status',
          'iam_users.is_platform_admin',
          'iam_users.must_change_password',
          'iam_tenants.status as tenant_status',
        ])
        .where('iam_users.id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { tenant_status: tenantStatus, ...user } = row;
      // A disabled tenant disables every user in it: forward-auth and refresh refuse them.
      if (tenantStatus !== 'active') user.status = 'disabled';
      const roles = await db
        .selectFrom('iam_user_roles')
        .innerJoin('iam_roles', 'iam_roles.id', 'iam_user_roles.role_id')
        .select(['iam_roles.code', 'iam_roles.permissions'])
        .where('iam_user_roles.user_id', '=', userId)
        .where('iam_roles.tenant_id', '=', user.tenant_id)
        .execute();
      const result: DirectoryUser = {
        ...user,
        roles: roles.map((r) => r.code).sort(),
        permissions: normalizePermissions(roles.flatMap((r) => r.permissions)),
      };
      await cache.set(userCacheKey(userId), JSON.stringify(result), USER_CACHE_TTL_MS);
      return result;
    },

    async passwordHashOf(userId) {
      const row = await db
        .selectFrom('iam_users')
        .select('password_hash')
        .where('id', '=', userId)
        .executeTakeFirst();
      return row?.password_hash;
    },

    async setPassword(userId, passwordHash) {
      await db
        .updateTable('iam_users')
        .set({
          password_hash: passwordHash,
          must_change_password: false,
          password_changed_at: new Date(),
          updated_at: new Date(),
        })
        .where('id', '=', userId)
        .execute();
      await invalidateUsers(cache, [userId]);
    },
  };
}
