import { containsPattern } from '../../platform/db/like-pattern.js';
import type { DirectoryMember, Person, TenantDirectory } from './directory.js';
import type { IdentityDb } from './identity.tables.js';

/** One tenant's lookups over identity's tables (IdentityDirectory.tenant). */
export function createTenantDirectory(db: IdentityDb, tenantId: number): TenantDirectory {
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
