import { findAccount, type AccountMatch } from './account-lookup.js';
import type { Kysely } from 'kysely';
import type { Cache } from '../../platform/cache/cache.js';
import type { LookasideCache } from '../../platform/cache/fail-open.js';
import { DependencyDownError } from '../../platform/dependency-errors.js';
import { normalizePermissions } from '../../platform/auth/principal.js';
import { createTenantDirectory } from './assignee-directory.js';
import type { IdentityDb, IdentityTables } from './identity.tables.js';

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
   * One tenant's lookups, uncached. `on` is the caller's transaction, so a caller holding a
   * connection never waits for a second one from the same pool.
   */
  tenant<DB>(tenantId: number, on?: Kysely<DB>): TenantDirectory;
}

/** Bounds staleness when an invalidation is missed (separate processes without Redis). */
const USER_CACHE_TTL_MS = 30_000;
/** Users whose last parsed entry this process keeps (the oldest is dropped beyond it). */
const PARSED_ENTRIES = 10_000;

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
 * The parsed form of each user's cached entry, kept beside the text it was parsed from: forward-
 * auth and `/me` read the entry on every request, and while the text is unchanged the parse
 * would give the same user. Entries are frozen, since every caller shares them.
 */
class ParsedEntries {
  private readonly entries = new Map<number, { text: string; user: DirectoryUser }>();

  of(userId: number, text: string): DirectoryUser {
    const known = this.entries.get(userId);
    if (known?.text === text) return known.user;
    return this.keep(userId, text, JSON.parse(text) as DirectoryUser);
  }

  keep(userId: number, text: string, user: DirectoryUser): DirectoryUser {
    Object.freeze(user.roles);
    Object.freeze(user.permissions);
    Object.freeze(user);
    this.entries.delete(userId);
    // Oldest first: Map keeps insertion order.
    if (this.entries.size >= PARSED_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(userId, { text, user });
    return user;
  }
}

export function createIdentityDirectory(
  db: Kysely<IdentityTables>,
  cache: LookasideCache,
): IdentityDirectory {
  const parsed = new ParsedEntries();
  return {
    tenant: (tenantId, on) =>
      // Any handle of the shared database reaches identity's tables: read them on the caller's.
      createTenantDirectory(on ? (on.withTables<IdentityTables>() as IdentityDb) : db, tenantId),

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
      const cached = options?.fresh ? null : await cache.get(userCacheKey(userId));
      if (cached) return parsed.of(userId, cached);
      const row = await db
        .selectFrom('iam_users')
        .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
        .select([
          'iam_users.id',
          'iam_users.tenant_id',
          'iam_users.username',
          'iam_users.nickname',
          'iam_users.email',
          'iam_users.dept_id',
          'iam_users.status',
          'iam_users.is_platform_admin',
          'iam_users.must_change_password',
          'iam_users.session_version',
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
      const text = JSON.stringify(result);
      await cache.set(userCacheKey(userId), text, USER_CACHE_TTL_MS);
      return parsed.keep(userId, text, result);
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
