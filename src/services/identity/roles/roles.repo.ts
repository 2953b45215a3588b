import type { ExpressionBuilder } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import type { RoleFilter } from './roles.schema.js';

export interface RoleRow {
  id: number;
  tenant_id: number;
  code: string;
  name: string;
  permissions: string[];
  created_at: Date;
  updated_at: Date;
}

export interface RolePatch {
  code?: string;
  name?: string;
  permissions?: string[];
}

export const ROLE_CODE_CONSTRAINT = 'iam_roles_tenant_code';

const ROLE_COLUMNS = [
  'id',
  'tenant_id',
  'code',
  'name',
  'permissions',
  'created_at',
  'updated_at',
] as const;

function matching(tenantId: number, filter: RoleFilter) {
  return (eb: ExpressionBuilder<IdentityTables, 'iam_roles'>) => {
    const conditions = [eb('tenant_id', '=', tenantId)];
    if (filter.keyword) {
      const pattern = containsPattern(filter.keyword);
      conditions.push(eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern)]));
    }
    return eb.and(conditions);
  };
}

export async function listRoles(
  db: IdentityDb,
  tenantId: number,
  filter: RoleFilter,
  page: Page,
): Promise<{ rows: RoleRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('iam_roles')
      .select(ROLE_COLUMNS)
      .where(matching(tenantId, filter))
      .orderBy('id')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('iam_roles')
      .where(matching(tenantId, filter))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findRole(
  db: IdentityDb,
  tenantId: number,
  roleId: number,
): Promise<RoleRow | undefined> {
  return db
    .selectFrom('iam_roles')
    .select(ROLE_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', roleId)
    .executeTakeFirst();
}

/**
 * Locks a role of the tenant against concurrent assignment (which takes a key-share lock on it),
 * so the holders read afterwards are complete until the transaction ends.
 */
export async function lockRoleForUpdate(
  db: IdentityDb,
  tenantId: number,
  roleId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('iam_roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', roleId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `roleIds` are roles of the tenant; share-locked until the transaction ends. */
export async function lockRolesForReference(
  db: IdentityDb,
  tenantId: number,
  roleIds: number[],
): Promise<Set<number>> {
  if (roleIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('iam_roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', roleIds)
    .forKeyShare()
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertRole(
  db: IdentityDb,
  role: { tenant_id: number; code: string; name: string; permissions: string[] },
): Promise<RoleRow> {
  return db
    .insertInto('iam_roles')
    .values({ ...role, permissions: JSON.stringify(role.permissions) })
    .returning(ROLE_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateRole(
  db: IdentityDb,
  tenantId: number,
  roleId: number,
  patch: RolePatch,
): Promise<RoleRow | undefined> {
  const { permissions, ...rest } = patch;
  return db
    .updateTable('iam_roles')
    .set({
      ...rest,
      ...(permissions ? { permissions: JSON.stringify(permissions) } : {}),
      updated_at: new Date(),
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', roleId)
    .returning(ROLE_COLUMNS)
    .executeTakeFirst();
}

export async function deleteRole(db: IdentityDb, tenantId: number, roleId: number): Promise<void> {
  await db
    .deleteFrom('iam_roles')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', roleId)
    .execute();
}

/** Who holds the role: ids, and whether any of them is a platform administrator. */
export async function roleHolders(
  db: IdentityDb,
  tenantId: number,
  roleId: number,
): Promise<{ userIds: number[]; platformAdminHolds: boolean }> {
  const rows = await db
    .selectFrom('iam_user_roles')
    .innerJoin('iam_users', 'iam_users.id', 'iam_user_roles.user_id')
    .select(['iam_user_roles.user_id', 'iam_users.is_platform_admin'])
    .where('iam_users.tenant_id', '=', tenantId)
    .where('iam_user_roles.role_id', '=', roleId)
    .execute();
  return {
    userIds: rows.map((r) => r.user_id),
    platformAdminHolds: rows.some((r) => r.is_platform_admin),
  };
}
