import type { LookasideCache } from '../../platform/cache/fail-open.js';
import { containsPattern } from '../../platform/db/like-pattern.js';
import type { DirectoryMember, DirectoryUser, Person, TenantDirectory } from './directory.js';
import type { IdentityDb } from './identity.tables.js';
import { cachedUsers } from './user-cache.js';

const memberOf = (user: DirectoryUser): DirectoryMember => ({
  id: user.id,
  deptId: user.dept_id,
  active: user.status === 'active',
});

/**
 * One tenant's lookups over identity's tables (IdentityDirectory.tenant). With `cache` (the user
 * cache), `users` and `profile` read it first, and each user once per directory (one command):
 * the engine asks for the same assignee in its pre-flight and again when it opens the task.
 * Without it (tests of the engine's persistence), every lookup reads the tables.
 */
export function createTenantDirectory(
  db: IdentityDb,
  tenantId: number,
  cache?: LookasideCache,
): TenantDirectory {
  const seen = new Map<number, DirectoryUser>();
  /** The users among `ids` of this tenant, through the cache; undefined without one. */
  const viaCache = async (ids: number[]): Promise<DirectoryUser[] | undefined> => {
    if (!cache) return undefined;
    const unseen = ids.filter((id) => !seen.has(id));
    if (unseen.length > 0) {
      for (const [id, user] of await cachedUsers(db, cache, unseen)) seen.set(id, user);
    }
    return [...new Set(ids)].flatMap((id) => {
      const user = seen.get(id);
      return user && user.tenant_id === tenantId ? [user] : [];
    });
  };
  const users = db
    .selectFrom('iam_users')
    .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
    .select((eb) => [
      'iam_users.id as id',
      'iam_users.dept_id as deptId',
      eb
        .and([eb('iam_users.status', '=', 'active'), eb('iam_tenants.status', '=', 'active')])
        .as('active'),
    ])
    .where('iam_users.tenant_id', '=', tenantId);
  return {
    async users(ids) {
      if (ids.length === 0) return [];
      const cached = await viaCache(ids);
      if (cached) return cached.map(memberOf);
      return (await users.where('iam_users.id', 'in', ids).execute()) as DirectoryMember[];
    },
    async usersInRoles(roleIds) {
      if (roleIds.length === 0) return [];
      return (await users
        .where('iam_users.id', 'in', (eb) =>
          eb
            .selectFrom('iam_user_roles')
            .innerJoin('iam_roles', 'iam_roles.id', 'iam_user_roles.role_id')
            .select('iam_user_roles.user_id')
            .where('iam_roles.tenant_id', '=', tenantId)
            .where('iam_roles.id', 'in', roleIds),
        )
        .orderBy('iam_users.id')
        .execute()) as DirectoryMember[];
    },
    async knownRoles(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('iam_roles')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();
      return rows.map((r) => r.id);
    },
    async parentOf(deptId) {
      const row = await db
        .selectFrom('iam_departments')
        .select('parent_id')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', deptId)
        .executeTakeFirst();
      return row === undefined ? undefined : row.parent_id;
    },
    async leaderOf(deptId) {
      const row = await db
        .selectFrom('iam_departments')
        .select('leader_id')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', deptId)
        .executeTakeFirst();
      return row === undefined ? undefined : row.leader_id;
    },
    async departments(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('iam_departments')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();
      return rows.map((r) => r.id);
    },
    async people({ keyword, ids, limit }) {
      let query = db
        .selectFrom('iam_users')
        .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
        .leftJoin('iam_departments', 'iam_departments.id', 'iam_users.dept_id')
        .select((eb) => [
          'iam_users.id as id',
          eb.fn
            .coalesce(eb.fn('nullif', ['iam_users.nickname', eb.val('')]), 'iam_users.username')
            .as('name'),
          'iam_users.dept_id as deptId',
          'iam_departments.name as deptName',
          eb
            .and([eb('iam_users.status', '=', 'active'), eb('iam_tenants.status', '=', 'active')])
            .as('active'),
        ])
        .where('iam_users.tenant_id', '=', tenantId)
        .orderBy('iam_users.id')
        .limit(limit);
      if (ids) query = query.where('iam_users.id', 'in', ids.length > 0 ? ids : [0]);
      else query = query.where('iam_users.status', '=', 'active');
      if (keyword) {
        const pattern = containsPattern(keyword);
        query = query.where((eb) =>
          eb.or([
            eb('iam_users.username', 'ilike', pattern),
            eb('iam_users.nickname', 'ilike', pattern),
          ]),
        );
      }
      return (await query.execute()) as Person[];
    },
    async departmentList() {
      return db
        .selectFrom('iam_departments')
        .select(['id', 'name', 'parent_id as parentId'])
        .where('tenant_id', '=', tenantId)
        .orderBy('id')
        .limit(5000)
        .execute();
    },
    async profile(userId) {
      const cached = await viaCache([userId]);
      if (cached) {
        const [user] = cached;
        return user && { ...memberOf(user), username: user.username, roleIds: user.role_ids };
      }
      const user = (await users
        .select('iam_users.username as username')
        .where('iam_users.id', '=', userId)
        .executeTakeFirst()) as (DirectoryMember & { username: string }) | undefined;
      if (!user) return undefined;
      const roles = await db
        .selectFrom('iam_user_roles')
        .innerJoin('iam_roles', 'iam_roles.id', 'iam_user_roles.role_id')
        .select('iam_roles.id')
        .where('iam_user_roles.user_id', '=', userId)
        .where('iam_roles.tenant_id', '=', tenantId)
        .orderBy('iam_roles.id')
        .execute();
      return { ...user, roleIds: roles.map((r) => r.id) };
    },
  };
}
