import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { auditChange } from '../audit.js';
import { parsePage, pageResult } from '../../../platform/http/envelope.js';
import { AppError } from '../../../platform/errors.js';
import {
  conflictOnDuplicate,
  conflictOnReference,
} from '../../../platform/db/constraint-errors.js';
import { invalidateUsers } from '../directory.js';
import { assertCanGrant, assertMayChangeRole, keepingStarHolder } from '../grants/grants.js';
import type { IdentityDb } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import {
  deleteRole,
  findRole,
  insertRole,
  listRoles,
  lockRoleForUpdate,
  roleHolders,
  ROLE_CODE_CONSTRAINT,
  updateRole,
  type RolePatch,
  type RoleRow,
} from './roles.repo.js';
import type { CreateRoleInput, ListRolesQuery, RoleView, UpdateRoleInput } from './roles.schema.js';

export interface RolesServiceOptions {
  db: IdentityDb;
  /** Forward-auth's user cache: every holder of a changed role is invalidated. */
  cache: Cache;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

const DUPLICATE_CODE = 'role code already exists in this tenant';

/** Permission codes as stored: deduplicated and sorted. */
export function normalizeCodes(codes: string[]): string[] {
  return [...new Set(codes)].sort();
}

function toRoleView(row: RoleRow): RoleView {
  return { ...row, created_at: toIso(row.created_at), updated_at: toIso(row.updated_at) };
}

/** Role administration within the caller's tenant. */
export class RolesService {
  constructor(private readonly o: RolesServiceOptions) {}

  async list(principal: Principal, query: ListRolesQuery) {
    const page = parsePage(query);
    const { rows, total } = await listRoles(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toRoleView), total, page);
  }

  async get(principal: Principal, roleId: number): Promise<RoleView> {
    const row = await findRole(this.o.db, principal.tenantId, roleId);
    if (!row) throw AppError.notFound('role');
    return toRoleView(row);
  }

  async create(principal: Principal, input: CreateRoleInput): Promise<RoleView> {
    assertCanGrant(principal, input.permissions);
    const row = await inTransaction(this.o.db, async (trx) => {
      const created = await conflictOnDuplicate(
        insertRole(trx, {
          tenant_id: principal.tenantId,
          code: input.code,
          name: input.name,
          permissions: normalizeCodes(input.permissions),
        }),
        ROLE_CODE_CONSTRAINT,
        DUPLICATE_CODE,
      );
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'role',
        targetId: created.id,
        before: null,
        after: toRoleView(created),
        summary: `created role ${created.code}`,
      });
      return created;
    });
    return toRoleView(row);
  }

  async update(principal: Principal, roleId: number, input: UpdateRoleInput): Promise<RoleView> {
    const tenantId = principal.tenantId;
    const patch: RolePatch = {};
    if (input.code !== undefined) patch.code = input.code;
    if (input.name !== undefined) patch.name = input.name;
    if (input.permissions !== undefined) patch.permissions = normalizeCodes(input.permissions);
    const { row, holders } = await inTransaction(this.o.db, (trx) =>
      keepingStarHolder(trx, tenantId, async () => {
        // Locked first: an assignment in flight either commits before (and is among the holders
        // read below) or waits until this commits (and then reads the new permissions).
        if (!(await lockRoleForUpdate(trx, tenantId, roleId))) throw AppError.notFound('role');
        const before = (await findRole(trx, tenantId, roleId))!;
        const holderSet = await roleHolders(trx, tenantId, roleId);
        assertMayChangeRole(principal, holderSet);
        if (patch.permissions) {
          const had = new Set(before.permissions);
          assertCanGrant(
            principal,
            patch.permissions.filter((code) => !had.has(code)),
          );
        }
        const updated = await conflictOnDuplicate(
          updateRole(trx, tenantId, roleId, patch),
          ROLE_CODE_CONSTRAINT,
          DUPLICATE_CODE,
        );
        await auditChange(this.o.audit, trx, principal, {
          action: 'update',
          targetType: 'role',
          targetId: roleId,
          before: toRoleView(before),
          after: toRoleView(updated!),
          summary: `updated role ${updated!.code}`,
        });
        return { row: updated!, holders: holderSet.userIds };
      }),
    );
    await invalidateUsers(this.o.cache, holders);
    return toRoleView(row);
  }

  async remove(principal: Principal, roleId: number): Promise<void> {
    const tenantId = principal.tenantId;
    const holders = await inTransaction(this.o.db, (trx) =>
      keepingStarHolder(trx, tenantId, async () => {
        if (!(await lockRoleForUpdate(trx, tenantId, roleId))) throw AppError.notFound('role');
        const holderSet = await roleHolders(trx, tenantId, roleId);
        assertMayChangeRole(principal, holderSet);
        const before = (await findRole(trx, tenantId, roleId))!;
        await auditChange(this.o.audit, trx, principal, {
          action: 'delete',
          targetType: 'role',
          targetId: roleId,
          before: { ...toRoleView(before), holders: holderSet.userIds },
          after: null,
          summary: `deleted role ${before.code}`,
        });
        await conflictOnReference(
          deleteRole(trx, tenantId, roleId),
          'the role is still referenced by other records',
        );
        return holderSet.userIds;
      }),
    );
    // Its grants leave every holder's next request at once.
    await invalidateUsers(this.o.cache, holders);
  }
}
