import type { Logger } from 'pino';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import { assertPermission } from '../identity.permissions.js';
import type { PasswordHasher } from '../../../platform/auth/passwords.js';
import { mayManageUser, type Principal } from '../../../platform/auth/principal.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { parsePage, pageResult } from '../../../platform/http/envelope.js';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import type { Mailer } from '../../../platform/notify/mailer.js';
import {
  assertCanGrant,
  holdsEverything,
  keepingStarHolder,
  notAllowed,
} from '../grants/grants.js';
import { permissionsOfRoles } from '../grants/grants.repo.js';
import {
  conflictOnDuplicate,
  conflictOnReference,
} from '../../../platform/db/constraint-errors.js';
import { lockDepartmentForReference } from '../departments/departments.repo.js';
import { auditChange } from '../audit.js';
import { invalidateUsers } from '../directory.js';
import type { IdentityPorts } from '../identity.ports.js';
import type { IdentityDb } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import { lockRolesForReference } from '../roles/roles.repo.js';
import {
  deleteUser,
  findUser,
  insertUser,
  listUsers,
  lockUserForUpdate,
  replaceUserPosts,
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
  /** The process's argon2 semaphore. */
  passwords: PasswordHasher;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
  /** Open approval tasks of a user (a port), answered when the user is disabled. */
  openTasksOf: IdentityPorts['openTasksOf'];
  /** Tells the old address of an e-mail change; none when mail is not configured. */
  mailer?: Mailer | undefined;
  logger: Logger;
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
  input: {
    dept_id?: number | null | undefined;
    role_ids?: number[] | undefined;
    post_ids?: number[] | undefined;
  },
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
  const postIds = input.post_ids ?? [];
  const posts =
    postIds.length === 0
      ? new Set<number>()
      : new Set(
          (
            await db
              .selectFrom('iam_posts')
              .select('id')
              .where('tenant_id', '=', tenantId)
              .where('id', 'in', [...new Set(postIds)])
              .forKeyShare()
              .execute()
          ).map((r) => r.id),
        );
  postIds.forEach((postId, index) => {
    if (!posts.has(postId))
      problems.push({ field: `post_ids.${index}`, rule: 'option', message: `no post ${postId}` });
  });
  return problems;
}

const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

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
    const passwordHash = await this.o.passwords.hash(input.password);
    const row = await inTransaction(this.o.db, async (trx) => {
      const problems = await referenceProblems(trx, tenantId, input);
      if (problems.length > 0) throw AppError.validation(problems);
      const roleIds = [...new Set(input.role_ids ?? [])];
      assertCanGrant(principal, await permissionsOfRoles(trx, tenantId, roleIds));
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
      await replaceUserRoles(trx, userId, roleIds);
      await replaceUserPosts(trx, userId, [...new Set(input.post_ids ?? [])]);
      const created = (await findUser(trx, tenantId, userId))!;
      await auditChange(this.o.audit, trx, principal, {
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

  /**
   * Changes a user. Disabling answers `open_tasks` too: the approval tasks they still hold,
   * which nobody can act on until an administrator reassigns them.
   */
  async update(
    principal: Principal,
    userId: number,
    input: UpdateUserInput,
  ): Promise<UserView & { open_tasks?: number }> {
    const tenantId = principal.tenantId;
    const self = userId === principal.userId;
    if (self && input.status === 'disabled') {
      throw AppError.conflict('you cannot disable your own account');
    }
    if (self && input.password !== undefined) {
      // The own password changes with the old one (POST /api/v1/me/password), so a stolen
      // session cannot take over the account.
      throw notAllowed('change your own password with POST /api/v1/me/password');
    }
    // Whoever sets another user's password can sign in as them: a code of its own.
    if (input.password !== undefined) assertPermission(principal, 'system:user:reset-password');
    const passwordHash = input.password ? await this.o.passwords.hash(input.password) : undefined;
    const { before, after: row } = await inTransaction(this.o.db, (trx) =>
      keepingStarHolder(trx, tenantId, async () => {
        const before = await this.lockManagedUser(trx, principal, userId);
        const emailChanged = input.email !== undefined && input.email !== before.email;
        // The e-mail address receives password-reset links: the same code as the password.
        if (emailChanged && !self) assertPermission(principal, 'system:user:reset-password');
        const problems = await referenceProblems(trx, tenantId, input);
        if (problems.length > 0) throw AppError.validation(problems);
        const roleIds = input.role_ids && [...new Set(input.role_ids)];
        if (roleIds && !sameSet(roleIds, before.role_ids)) {
          if (self && !holdsEverything(principal)) {
            throw notAllowed('you cannot change your own roles');
          }
          const added = roleIds.filter((id) => !before.role_ids.includes(id));
          assertCanGrant(principal, await permissionsOfRoles(trx, tenantId, added));
        }
        const patch: UserPatch = {};
        if (input.username !== undefined) patch.username = input.username;
        if (passwordHash !== undefined) patch.password_hash = passwordHash;
        if (input.nickname !== undefined) patch.nickname = input.nickname;
        if (input.email !== undefined) patch.email = input.email;
        if (input.dept_id !== undefined) patch.dept_id = input.dept_id;
        if (input.status !== undefined) patch.status = input.status;
        // A password set by an administrator, or a disabled account, ends every session of the
        // user; the new password must be changed at the next sign-in.
        if (passwordHash !== undefined) patch.must_change_password = true;
        if (
          passwordHash !== undefined ||
          (input.status === 'disabled' && before.status !== 'disabled')
        ) {
          patch.end_sessions = true;
        }
        await conflictOnDuplicate(
          updateUser(trx, tenantId, userId, patch),
          USERNAME_CONSTRAINT,
          DUPLICATE_USERNAME,
        );
        if (roleIds !== undefined) await replaceUserRoles(trx, userId, roleIds);
        if (input.post_ids) await replaceUserPosts(trx, userId, [...new Set(input.post_ids)]);
        const after = (await findUser(trx, tenantId, userId))!;
        await auditChange(this.o.audit, trx, principal, {
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
        return { before, after };
      }),
    );
    // After the commit: the next request of this user is checked against the new state.
    await invalidateUsers(this.o.cache, [userId]);
    if (before.email && before.email !== row.email) this.tellOldAddress(before, row);
    if (row.status !== 'disabled') return toUserView(row);
    return { ...toUserView(row), open_tasks: await this.o.openTasksOf(tenantId, userId) };
  }

  async remove(principal: Principal, userId: number): Promise<void> {
    const tenantId = principal.tenantId;
    if (userId === principal.userId) throw AppError.conflict('you cannot delete your own account');
    // Deleting the user deletes their sessions and refresh tokens with them (foreign keys).
    await inTransaction(this.o.db, (trx) =>
      keepingStarHolder(trx, tenantId, async () => {
        const before = await this.lockManagedUser(trx, principal, userId);
        await auditChange(this.o.audit, trx, principal, {
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
      }),
    );
    await invalidateUsers(this.o.cache, [userId]);
  }

  /**
   * Locks a user of the caller's tenant for a change and answers it, if the caller may manage
   * them. A platform administrator's account reaches beyond its tenant: only another platform
   * administrator may change or delete it (40300). Anyone else may be changed only by a caller
   * holding every permission they hold (40301), or a lesser user admin could set a stronger
   * user's password and sign in as them.
   */
  private async lockManagedUser(trx: IdentityDb, principal: Principal, userId: number) {
    const target = await lockUserForUpdate(trx, principal.tenantId, userId);
    if (!target) throw AppError.notFound('user');
    if (target.is_platform_admin && !principal.platformAdmin) {
      throw AppError.forbidden('only a platform administrator may change this account');
    }
    const user = (await findUser(trx, principal.tenantId, userId))!;
    const permissions = await permissionsOfRoles(trx, principal.tenantId, user.role_ids);
    if (!mayManageUser(principal, { permissions, isPlatformAdmin: target.is_platform_admin })) {
      throw notAllowed('you cannot change a user holding permissions you do not hold');
    }
    return user;
  }

  /** Mails the old address of an e-mail change, after the commit; a failure is only logged. */
  private tellOldAddress(before: UserRow, after: UserRow) {
    const mailer = this.o.mailer;
    if (!mailer) {
      this.o.logger.info(
        { user_id: after.id },
        'e-mail changed; mail is off, old address not told',
      );
      return;
    }
    const change = after.email ? `changed to ${after.email}` : 'removed';
    mailer
      .send({
        to: before.email!,
        subject: 'The e-mail address of your Approva account changed',
        text:
          `The e-mail address of the Approva account "${after.username}" was ${change} by an ` +
          'administrator. Password-reset links now go to the new address. If you did not ask ' +
          'for this, contact your administrator at once.\n',
      })
      .catch((err: unknown) =>
        this.o.logger.error({ err, user_id: after.id }, 'could not tell the old e-mail address'),
      );
  }
}
