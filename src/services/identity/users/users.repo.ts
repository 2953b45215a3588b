import { sql, type ExpressionBuilder } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import type { UserFilter } from './users.schema.js';

/** A user as the administration API shows it: never the password hash. */
export interface UserRow {
  id: number;
  tenant_id: number;
  username: string;
  nickname: string;
  email: string | null;
  dept_id: number | null;
  status: 'active' | 'disabled';
  is_platform_admin: boolean;
  must_change_password: boolean;
  role_ids: number[];
  post_ids: number[];
  created_at: Date;
  updated_at: Date;
}

export interface NewUser {
  tenant_id: number;
  username: string;
  password_hash: string;
  nickname: string;
  email: string | null;
  dept_id: number | null;
  status: 'active' | 'disabled';
  is_platform_admin: boolean;
}

export interface UserPatch {
  username?: string;
  password_hash?: string;
  nickname?: string;
  email?: string | null;
  dept_id?: number | null;
  status?: 'active' | 'disabled';
  must_change_password?: boolean;
  /** Bumps `session_version`: every session and token of the user stops working. */
  end_sessions?: boolean;
}

export const USERNAME_CONSTRAINT = 'iam_users_tenant_username';

/** The columns every read of a user carries, here and in the user cache. */
export const USER_COLUMNS = [
  'iam_users.id',
  'iam_users.tenant_id',
  'iam_users.username',
  'iam_users.nickname',
  'iam_users.email',
  'iam_users.dept_id',
  'iam_users.status',
  'iam_users.is_platform_admin',
  'iam_users.must_change_password',
] as const;

function selectUsers(db: IdentityDb, tenantId: number) {
  return db
    .selectFrom('iam_users')
    .select([
      ...USER_COLUMNS,
      'iam_users.created_at',
      'iam_users.updated_at',
      // jsonb, not an int8 array: both drivers turn it into JSON numbers.
      sql<number[]>`coalesce((
        SELECT jsonb_agg(ur.role_id ORDER BY ur.role_id)
        FROM iam_user_roles ur WHERE ur.user_id = iam_users.id), '[]'::jsonb)`.as('role_ids'),
      sql<number[]>`coalesce((
        SELECT jsonb_agg(up.post_id ORDER BY up.post_id)
        FROM iam_user_posts up WHERE up.user_id = iam_users.id), '[]'::jsonb)`.as('post_ids'),
    ])
    .where('iam_users.tenant_id', '=', tenantId);
}

/** The list filter as one SQL condition, tenant first. */
function matching(tenantId: number, filter: UserFilter) {
  return (eb: ExpressionBuilder<IdentityTables, 'iam_users'>) => {
    const conditions = [eb('iam_users.tenant_id', '=', tenantId)];
    if (filter.keyword) {
      const pattern = containsPattern(filter.keyword);
      conditions.push(
        eb.or([
          eb('iam_users.username', 'ilike', pattern),
          eb('iam_users.nickname', 'ilike', pattern),
        ]),
      );
    }
    if (filter.status) conditions.push(eb('iam_users.status', '=', filter.status));
    if (filter.dept_id !== undefined) conditions.push(eb('iam_users.dept_id', '=', filter.dept_id));
    return eb.and(conditions);
  };
}

export async function listUsers(
  db: IdentityDb,
  tenantId: number,
  filter: UserFilter,
  page: Page,
): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    selectUsers(db, tenantId)
      .where(matching(tenantId, filter))
      .orderBy('iam_users.id')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('iam_users')
      .where(matching(tenantId, filter))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findUser(
  db: IdentityDb,
  tenantId: number,
  userId: number,
): Promise<UserRow | undefined> {
  return selectUsers(db, tenantId).where('iam_users.id', '=', userId).executeTakeFirst();
}

/** Locks a user of the tenant for an update or delete in the surrounding transaction. */
export function lockUserForUpdate(db: IdentityDb, tenantId: number, userId: number) {
  return db
    .selectFrom('iam_users')
    .select(['id', 'status', 'is_platform_admin'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/** Whether the user exists in the tenant; the share lock keeps it until the transaction ends. */
export async function lockUserForReference(
  db: IdentityDb,
  tenantId: number,
  userId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('iam_users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts a user; one an administrator creates must change the password at first sign-in. */
export async function insertUser(db: IdentityDb, user: NewUser): Promise<number> {
  const row = await db
    .insertInto('iam_users')
    .values({ ...user, must_change_password: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: IdentityDb,
  tenantId: number,
  userId: number,
  patch: UserPatch,
): Promise<void> {
  const { end_sessions: endSessions, ...columns } = patch;
  await db
    .updateTable('iam_users')
    .set({
      ...columns,
      ...(patch.password_hash ? { password_changed_at: new Date() } : {}),
      ...(endSessions ? { session_version: sql<number>`session_version + 1` } : {}),
      updated_at: new Date(),
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute();
}

/** Replaces the user's role set; the caller has checked every role belongs to the user's tenant. */
export async function replaceUserRoles(
  db: IdentityDb,
  userId: number,
  roleIds: number[],
): Promise<void> {
  await db.deleteFrom('iam_user_roles').where('user_id', '=', userId).execute();
  if (roleIds.length === 0) return;
  await db
    .insertInto('iam_user_roles')
    .values(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
    .execute();
}

/** Replaces the user's posts (ids already checked to be the tenant's). */
export async function replaceUserPosts(
  db: IdentityDb,
  userId: number,
  postIds: number[],
): Promise<void> {
  await db.deleteFrom('iam_user_posts').where('user_id', '=', userId).execute();
  if (postIds.length === 0) return;
  await db
    .insertInto('iam_user_posts')
    .values(postIds.map((postId) => ({ user_id: userId, post_id: postId })))
    .execute();
}

export async function deleteUser(db: IdentityDb, tenantId: number, userId: number): Promise<void> {
  await db
    .deleteFrom('iam_users')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute();
}

/** Ids of every user of the tenant (cache invalidation when the tenant changes). */
/**
 * Ends every session of a tenant's users (their session versions move on): a tenant disabled
 * and enabled again does not bring back the sessions it had.
 */
export async function endSessionsOfTenant(db: IdentityDb, tenantId: number): Promise<void> {
  await db
    .updateTable('iam_users')
    .set({ session_version: sql<number>`session_version + 1` })
    .where('tenant_id', '=', tenantId)
    .execute();
}

export async function userIdsOfTenant(db: IdentityDb, tenantId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('iam_users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .execute();
  return rows.map((r) => r.id);
}
