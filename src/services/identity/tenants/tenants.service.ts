import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { PasswordHasher } from '../../../platform/auth/passwords.js';
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
import type { IdentityDb } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import { createSuperAdminRole, DEFAULT_TENANT } from '../seed.js';
import {
  endSessionsOfTenant,
  insertUser,
  replaceUserRoles,
  userIdsOfTenant,
} from '../users/users.repo.js';
import {
  deleteTenant,
  findTenant,
  insertTenant,
  listTenants,
  lockTenantForUpdate,
  TENANT_CODE_CONSTRAINT,
  updateTenant,
  type TenantPatch,
  type TenantRow,
} from './tenants.repo.js';
import type {
  CreateTenantInput,
  ListTenantsQuery,
  TenantView,
  UpdateTenantInput,
} from './tenants.schema.js';

export interface TenantsServiceOptions {
  db: IdentityDb;
  /** Forward-auth's user cache: a tenant's users are invalidated when it is disabled or deleted. */
  cache: Cache;
  /** The process's argon2 semaphore. */
  passwords: PasswordHasher;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

function toTenantView(row: TenantRow): TenantView {
  return { ...row, created_at: toIso(row.created_at), updated_at: toIso(row.updated_at) };
}

/** Tenant administration: platform administrators, across all tenants. */
export class TenantsService {
  constructor(private readonly o: TenantsServiceOptions) {}

  async list(query: ListTenantsQuery) {
    const page = parsePage(query);
    const { rows, total } = await listTenants(this.o.db, query, page);
    return pageResult(rows.map(toTenantView), total, page);
  }

  async get(tenantId: number): Promise<TenantView> {
    const row = await findTenant(this.o.db, tenantId);
    if (!row) throw AppError.notFound('tenant');
    return toTenantView(row);
  }

  /** The tenant, its `super_admin` role (`*`) and its first administrator, all or nothing. */
  async create(principal: Principal, input: CreateTenantInput): Promise<TenantView> {
    const passwordHash = await this.o.passwords.hash(input.admin_password);
    const row = await inTransaction(this.o.db, async (trx) => {
      const tenant = await conflictOnDuplicate(
        insertTenant(trx, {
          code: input.code,
          name: input.name,
          storage_quota_mb: input.storage_quota_mb ?? 0,
          package_id: await this.packageRef(trx, input.package_id),
        }),
        TENANT_CODE_CONSTRAINT,
        'tenant code already exists',
      );
      const roleId = await createSuperAdminRole(trx, tenant.id);
      const adminId = await insertUser(trx, {
        tenant_id: tenant.id,
        username: input.admin_username,
        password_hash: passwordHash,
        nickname: 'Administrator',
        email: null,
        dept_id: null,
        status: 'active',
        is_platform_admin: false,
      });
      await replaceUserRoles(trx, adminId, [roleId]);
      // Recorded in the platform administrator's tenant, where tenants are administered.
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'tenant',
        targetId: tenant.id,
        before: null,
        after: { ...toTenantView(tenant), admin_username: input.admin_username },
        summary: `created tenant ${tenant.code}`,
      });
      return tenant;
    });
    return toTenantView(row);
  }

  async update(
    principal: Principal,
    tenantId: number,
    input: UpdateTenantInput,
  ): Promise<TenantView> {
    if (input.status === 'disabled') this.guardOwnOrDefault(principal, tenantId, 'disable');
    const { row, affected } = await inTransaction(this.o.db, async (trx) => {
      // Locked first: users being added to the tenant right now commit before the ids are read.
      if (!(await lockTenantForUpdate(trx, tenantId))) throw AppError.notFound('tenant');
      const current = (await findTenant(trx, tenantId))!;
      if (input.code !== undefined && input.code !== current.code) {
        throw AppError.validation([
          { field: 'code', rule: 'format', message: 'the tenant code cannot be changed' },
        ]);
      }
      const patch: TenantPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.status !== undefined) patch.status = input.status;
      if (input.storage_quota_mb !== undefined) patch.storage_quota_mb = input.storage_quota_mb;
      if (input.package_id !== undefined)
        patch.package_id = await this.packageRef(trx, input.package_id);
      const updated = (await updateTenant(trx, tenantId, patch))!;
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'tenant',
        targetId: tenantId,
        before: toTenantView(current),
        after: toTenantView(updated),
        summary: `updated tenant ${updated.code}`,
      });
      const statusChanged = updated.status !== current.status;
      if (statusChanged && updated.status === 'disabled') await endSessionsOfTenant(trx, tenantId);
      return { row: updated, affected: statusChanged ? await userIdsOfTenant(trx, tenantId) : [] };
    });
    // A disabled tenant's users are refused by forward-auth from their next request on, and their
    // sessions stay ended when it is enabled again.
    await invalidateUsers(this.o.cache, affected);
    return toTenantView(row);
  }

  async remove(principal: Principal, tenantId: number): Promise<void> {
    this.guardOwnOrDefault(principal, tenantId, 'delete');
    const affected = await inTransaction(this.o.db, async (trx) => {
      if (!(await lockTenantForUpdate(trx, tenantId))) throw AppError.notFound('tenant');
      const userIds = await userIdsOfTenant(trx, tenantId);
      const before = (await findTenant(trx, tenantId))!;
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'tenant',
        targetId: tenantId,
        before: toTenantView(before),
        after: null,
        summary: `deleted tenant ${before.code}`,
      });
      await conflictOnReference(
        deleteTenant(trx, tenantId),
        'the tenant is still referenced by other records',
      );
      return userIds;
    });
    await invalidateUsers(this.o.cache, affected);
  }

  /** The default tenant holds the platform administrators; the caller's own tenant holds them. */
  private guardOwnOrDefault(principal: Principal, tenantId: number, action: string) {
    if (tenantId === DEFAULT_TENANT.id) {
      throw AppError.conflict(`the default tenant cannot be ${action}d`);
    }
    if (tenantId === principal.tenantId)
      throw AppError.conflict(`you cannot ${action} your own tenant`);
  }

  /** A package id that exists (share-locked until the change commits), or null. */
  private async packageRef(db: IdentityDb, packageId: number | null | undefined) {
    if (packageId == null) return null;
    const found = await db
      .selectFrom('iam_packages')
      .select('id')
      .where('id', '=', packageId)
      .forKeyShare()
      .executeTakeFirst();
    if (!found)
      throw AppError.validation([
        { field: 'package_id', rule: 'option', message: 'no such package' },
      ]);
    return packageId;
  }
}
