import { findAccount, type AccountMatch } from './account-lookup.js';
import type { Kysely } from 'kysely';
import type { LookasideCache } from '../../platform/cache/fail-open.js';
import { createTenantDirectory } from './assignee-directory.js';
import type { IdentityDb, IdentityTables } from './identity.tables.js';
import {
  cachedUsers,
  invalidateUsers,
  loadUsers,
  userCacheKey,
  USER_CACHE_TTL_MS,
} from './user-cache.js';

export { invalidateUsers, userCacheKey } from './user-cache.js';

/** What sign-in needs to check a password. */
export interface Credentials {
  id: number;
  tenant_id: number;
  username: string;
  password_hash: string;
  status: 'active' | 'disabled';
  /** Read with the hash: a session opened with it dies if an administrator bumps it meanwhile. */
  session_version: number;
}

/** A user as forward-auth and `/me` see them: identity plus effective permissions. */
export interface DirectoryUser {
  id: number;
  tenant_id: number;
  username: string;
  nickname: string;
  /** As an administrator set it; never confirmed by mail. */
  email: string | null;
  dept_id: number | null;
  status: 'active' | 'disabled';
  is_platform_admin: boolean;
  must_change_password: boolean;
  /** Sessions opened under another version are over (an admin set the password or disabled). */
  session_version: number;
  roles: string[];
  /** The ids of `roles`, ascending (the engine's initiator profile). */
  role_ids: number[];
  permissions: string[];
}

/** A user as the approval engine sees them: enough to route a task. */
export interface DirectoryMember {
  id: number;
  deptId: number | null;
  /** False while the user or their tenant is disabled. */
  active: boolean;
}

/** What a starter check needs to know of a user: their department and roles too. */
export interface UserProfile extends DirectoryMember {
  /** The name BPM's process log records for the user's own entries (the start of an instance). */
  username: string;
  roleIds: number[];
}

/** Lookups scoped to one tenant (assignee resolution, starters, initiators). */
export interface TenantDirectory {
  /** The users among `ids` that exist in the tenant (active or not). */
  users(ids: number[]): Promise<DirectoryMember[]>;
  /** Users holding any of the roles, in the tenant, by id. */
  usersInRoles(roleIds: number[]): Promise<DirectoryMember[]>;
  /** The roles among `ids` that exist in the tenant. */
  knownRoles(ids: number[]): Promise<number[]>;
  /** The department's parent id, or null at the top; undefined when it does not exist. */
  parentOf(deptId: number): Promise<number | null | undefined>;
  /** The department's leader, or null when it has none; undefined when it does not exist. */
  leaderOf(deptId: number): Promise<number | null | undefined>;
  profile(userId: number): Promise<UserProfile | undefined>;
  /** The departments among `ids` that exist in the tenant. */
  departments(ids: number[]): Promise<number[]>;
  /**
   * People of the tenant for pickers and names: by `keyword` (username or nickname; active users
   * only, at most `limit`), or by `ids` (inactive ones too, flagged).
   */
  people(query: { keyword?: string; ids?: number[]; limit: number }): Promise<Person[]>;
  /** Every department of the tenant, for pickers. */
  departmentList(): Promise<{ id: number; name: string; parentId: number | null }[]>;
}

/** A colleague as a picker shows them: no contact details, no roles. */
export interface Person {
  id: number;
  name: string;
  deptId: number | null;
  deptName: string | null;
  active: boolean;
}

/**
 * The identity service's one typed interface for the other services (auth's sign-in and
 * forward-auth, BPM's assignee resolution). They declare the part they need as their own port;
 * the composition root hands them this. SQL over identity's tables today; it could become an
 * HTTP client without its callers changing.
 */
export interface IdentityDirectory {
  findTenant(code: string): Promise<{ id: number; status: 'active' | 'disabled' } | undefined>;
  findCredentials(tenantId: number, username: string): Promise<Credentials | undefined>;
  /**
   * Cached; identity invalidates the entry whenever the user, their roles, a role or their tenant
   * changes. `status` is `disabled` while the user's tenant is disabled. `fresh` skips the
   * cache (refresh: an uncommon call that must see revocations at once, on every replica).
   */
  findUser(userId: number, options?: { fresh?: boolean }): Promise<DirectoryUser | undefined>;
  passwordHashOf(userId: number): Promise<string | undefined>;
  setPassword(userId: number, passwordHash: string): Promise<void>;
  /** An active account of an active tenant by username or e-mail (password reset). */
  findAccount(tenantCode: string, usernameOrEmail: string): Promise<AccountMatch | undefined>;
  /**
   * One tenant's lookups. `users` and `profile` are answered from the user cache (the entries
   * forward-auth reads, dropped on every change that affects a user), the others from the
   * tables. `on` is the caller's transaction, so a caller holding a connection never waits for a
   * second one from the same pool; a caller passing one never writes identity's tables in it
   * (what it reads there is cached).
   */
  tenant<DB>(tenantId: number, on?: Kysely<DB>): TenantDirectory;
}

export function createIdentityDirectory(
  db: Kysely<IdentityTables>,
  cache: LookasideCache,
): IdentityDirectory {
  return {
    tenant: (tenantId, on) =>
      // Any handle of the shared database reaches identity's tables: read them on the caller's.
      createTenantDirectory(
        on ? (on.withTables<IdentityTables>() as IdentityDb) : db,
        tenantId,
        cache,
      ),

    findTenant: (code) =>
      db
        .selectFrom('iam_tenants')
        .select(['id', 'status'])
        .where('code', '=', code)
        .executeTakeFirst(),

    findCredentials: (tenantId, username) =>
      db
        .selectFrom('iam_users')
        .select(['id', 'tenant_id', 'username', 'password_hash', 'status', 'session_version'])
        .where('tenant_id', '=', tenantId)
        .where('username', '=', username)
        .executeTakeFirst(),

    async findUser(userId, options) {
      if (!options?.fresh) return (await cachedUsers(db, cache, [userId])).get(userId);
      const [user] = await loadUsers(db, [userId]);
      if (user) await cache.set(userCacheKey(userId), JSON.stringify(user), USER_CACHE_TTL_MS);
      return user;
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

    findAccount: (tenantCode, usernameOrEmail) => findAccount(db, tenantCode, usernameOrEmail),
  };
}
