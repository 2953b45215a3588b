import { hashPassword } from '../../../platform/auth/passwords.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { parsePage, pageResult } from '../../../platform/http/envelope.js';
import { AppError, type FieldProblem } from '../../../platform/http/errors.js';
import {
  conflictOnDuplicate,
  conflictOnReference,
} from '../../../platform/db/constraint-errors.js';
import { lockDepartmentForReference } from '../departments/departments.repo.js';
import { auditChange } from '../audit.js';
import { invalidateUsers } from '../directory.js';
import type { IdentityDb } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import { lockRolesForReference } from '../roles/roles.repo.js';
import {
  deleteUser,
  findUser,
  insertUser,
  listUsers,
  lockUserForUpdate,
  replaceUserRoles,
  updateUser,
  USERNAME_CONSTRAINT,
  type UserPatch,
  type UserRow,
} from './users.repo.js';
import type { CreateUserInput, ListUsersQuery, UpdateUserInput, UserView } from './users.schema.js';

export interface UsersServiceOptions {
  db: IdentityDb;
  /** Forward-auth's user cache, invalidated after every change that affects a user. */
  cache: Cache;
}

const DUPLICATE_USERNAME = 'username already exists in this tenant';

export function toUserView(row: UserRow): UserView {
  return { ...row, created_at: toIso(row.created_at), updated_at: toIso(row.updated_at) };
}

/**
 * Problems with the department and roles a user is given, all at once. The rows found are
 * share-locked, so they cannot be deleted before the surrounding transaction commits.
 */
export async function referenceProblems(
  db: IdentityDb,
  tenantId: number,
  input: { dept_id?: number | null | undefined; role_ids?: number[] | undefined },
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  if (input.dept_id != null && !(await lockDepartmentForReference(db, tenantId, input.dept_id))) {
    problems.push({ field: 'dept_id', rule: 'option', message: 'no such department' });
  }
  const roleIds = input.role_ids ?? [];
  const found = await lockRolesForReference(db, tenantId, [...new Set(roleIds)]);
  roleIds.forEach((roleId, index) => {
    if (!found.has(roleId)) {
      problems.push({ field: `role_ids.${index}`, rule: 'option', message: `no role ${roleId}` });
    }
  });
  return problems;
}

/** User administration within the caller's tenant. */
export class UsersService {
  constructor(private readonly o: UsersServiceOptions) {}

  async list(principal: Principal, query: ListUsersQuery) {
    const page = parsePage(query);
    const { rows, total } = await listUsers(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toUserView), total, page);
  }

  async get(principal: Principal, userId: number): Promise<UserView> {
    const row = await findUser(this.o.db, principal.tenantId, userId);
    if (!row) throw AppError.notFound('user');
    return toUserView(row);
  }

  async create(principal: Principal, input: CreateUserInput): Promise<UserView> {
    const tenantId = principal.tenantId;
    const passwordHash = await hashPassword(input.password);
    const row = await inTransaction(this.o.db, async (trx) => {
      const problems = await referenceProblems(trx, tenantId, input);
      if (problems.length > 0) throw AppError.validation(problems);
      const userId = await conflictOnDuplicate(
        insertUser(trx, {
          tenant_id: tenantId,
          username: input.username,
          password_hash: passwordHash,
          nickname: input.nickname ?? '',
          email: input.email ?? null,
          dept_id: input.dept_id ?? null,
          status: input.status ?? 'active',
          is_platform_admin: false,
        }),
        USERNAME_CONSTRAINT,
        DUPLICATE_USERNAME,
      );
      await replaceUserRoles(trx, userId, [...new Set(input.role_ids ?? [])]);
      const created = (await findUser(trx, tenantId, userId))!;
      await auditChange(trx, principal, {
        action: 'create',
        targetType: 'user',
        targetId: userId,
        before: null,
        after: toUserView(created),
        summary: `created user ${created.username}`,
      });
      return created;
    });
    return toUserView(row!);
  }

  async update(principal: Principal, userId: number, input: UpdateUserInput): Promise<UserView> {
    const tenantId = principal.tenantId;
    if (userId === principal.userId && input.status === 'disabled') {
      throw AppError.conflict('you cannot disable your own account');
    }
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    const row = await inTransaction(this.o.db, async (trx) => {
      const target = await lockUserForUpdate(trx, tenantId, userId);
      if (!target) throw AppError.notFound('user');
      this.guardPlatformAdmin(principal, target);
      const before = (await findUser(trx, tenantId, userId))!;
      const problems = await referenceProblems(trx, tenantId, input);
      if (problems.length > 0) throw AppError.validation(problems);
      const patch: UserPatch = {};
      if (input.username !== undefined) patch.username = input.username;
      if (passwordHash !== undefined) patch.password_hash = passwordHash;
      if (input.nickname !== undefined) patch.nickname = input.nickname;
      if (input.email !== undefined) patch.email = input.email;
      if (input.dept_id !== undefined) patch.dept_id = input.dept_id;
      if (input.status !== undefined) patch.status = input.status;
      await conflictOnDuplicate(
        updateUser(trx, tenantId, userId, patch),
        USERNAME_CONSTRAINT,
        DUPLICATE_USERNAME,
      );
      if (input.role_ids !== undefined) {
        await replaceUserRoles(trx, userId, [...new Set(input.role_ids)]);
      }
      const after = (await findUser(trx, tenantId, userId))!;
      await auditChange(trx, principal, {
        action: 'update',
        targetType: 'user',
        targetId: userId,
        before: toUserView(before),
        after: {
          ...toUserView(after),
          ...(passwordHash !== undefined ? { password: 'changed' } : {}),
        },
        summary: `updated user ${after.username}`,
      });
      return after;
    });
    // After the commit: the next request of this user is checked against the new state.
    await invalidateUsers(this.o.cache, [userId]);
    return toUserView(row!);
  }

  async remove(principal: Principal, userId: number): Promise<void> {
    const tenantId = principal.tenantId;
    if (userId === principal.userId) throw AppError.conflict('you cannot delete your own account');
    await inTransaction(this.o.db, async (trx) => {
      const target = await lockUserForUpdate(trx, tenantId, userId);
      if (!target) throw AppError.notFound('user');
      this.guardPlatformAdmin(principal, target);
      const before = (await findUser(trx, tenantId, userId))!;
      await auditChange(trx, principal, {
        action: 'delete',
        targetType: 'user',
        targetId: userId,
        before: toUserView(before),
        after: null,
        summary: `deleted user ${before.username}`,
      });
      await conflictOnReference(
        deleteUser(trx, tenantId, userId),
        'the user is still referenced by other records',
      );
    });
    await invalidateUsers(this.o.cache, [userId]);
  }

  /**
   * A platform administrator's account reaches beyond its tenant: only another platform
   * administrator may change or delete it, or a tenant-level user admin could take it over.
   */
  private guardPlatformAdmin(principal: Principal, target: { is_platform_admin: boolean }) {
    if (target.is_platform_admin && !principal.platformAdmin) {
      throw AppError.forbidden('only a platform administrator may change this account');
    }
  }
}
