/**
 * The identity service's public face. Needs `IdentityPorts` (the open tasks of a user). Serves: tenants, users, roles,
 * departments, the permission catalogue, readiness at `/health/ready`, metrics. No jobs.
 * Provides `identityDirectory` (the one directory other services' ports are fitted with) and
 * `seedIdentity` (the first tenant and admin, run once under a lock at migrate and start).
 * Only identity's code reads the `iam_` tables.
 */
import { failOpen } from '../../platform/cache/fail-open.js';
import type { Kernel } from '../../platform/kernel.js';
import { IDENTITY_PERMISSIONS } from './identity.permissions.js';
import type { ServiceModule } from '../../platform/module.js';
import { createIdentityDirectory, type IdentityDirectory } from './directory.js';
import { buildIdentityApp } from './identity.app.js';
import type { IdentityPorts } from './identity.ports.js';
import type { IdentityTables } from './identity.tables.js';
import { seedIdentity } from './seed.js';

export type {
  Credentials,
  DirectoryMember,
  DirectoryUser,
  IdentityDirectory,
  TenantDirectory,
  UserProfile,
} from './directory.js';

export type { IdentityPorts } from './identity.ports.js';

export const identityModule: ServiceModule<IdentityPorts, 'identity'> = {
  name: 'identity',
  permissions: IDENTITY_PERMISSIONS,
  defaultPort: 8102,
  jobs: [],
  routes: [
    'users',
    'roles',
    'departments',
    'tenants',
    'permissions',
    'menus',
    'posts',
    'packages',
  ].map((area) => ({
    prefix: `/api/v1/${area}`,
  })),
  async create(kernel, ports) {
    const { app } = await buildIdentityApp(kernel, ports);
    return { app, jobs: [] };
  },
};

/** Identity's directory over its own tables and the kernel's cache. */
export function identityDirectory(kernel: Kernel): IdentityDirectory {
  return createIdentityDirectory(
    kernel.database.db.withTables<IdentityTables>(),
    failOpen(kernel.cache, kernel.logger, 'user directory'),
  );
}

/** Seeds tenant `default` and `admin` once, whatever the number of processes starting. */
export function seedIdentityData(
  database: Kernel['database'],
  options: { production: boolean; adminInitialPassword?: string | undefined },
  logger: Kernel['logger'],
): Promise<void> {
  return seedIdentity(database.db.withTables<IdentityTables>(), options, logger);
}

/**
 * A tenant's storage quota in MiB (`storage_quota_mb`; 0, or no such tenant, means unlimited):
 * what the files service's `quotaOf` port is fitted with. Read fresh on every call, so a change
 * an administrator makes applies to the next upload.
 */
export function identityStorageQuota(kernel: Kernel) {
  const db = kernel.database.db.withTables<IdentityTables>();
  return async (tenantId: number): Promise<number> => {
    // The tenant's package sets its quota; a tenant without one keeps its own.
    const row = await db
      .selectFrom('iam_tenants')
      .leftJoin('iam_packages', 'iam_packages.id', 'iam_tenants.package_id')
      .select(['iam_tenants.storage_quota_mb as own', 'iam_packages.storage_quota_mb as packaged'])
      .where('iam_tenants.id', '=', tenantId)
      .executeTakeFirst();
    return Number(row?.packaged ?? row?.own ?? 0);
  };
}

/**
 * The active platform administrators of active tenants, grouped by tenant: what the monitor's
 * `platformAdmins` port is fitted with (who hears of expiring certificates).
 */
export function identityPlatformAdmins(kernel: Kernel) {
  const db = kernel.database.db.withTables<IdentityTables>();
  return async (): Promise<{ tenantId: number; userIds: number[] }[]> => {
    const rows = await db
      .selectFrom('iam_users')
      .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
      .select(['iam_users.id', 'iam_users.tenant_id'])
      .where('iam_users.is_platform_admin', '=', true)
      .where('iam_users.status', '=', 'active')
      .where('iam_tenants.status', '=', 'active')
      .orderBy('iam_users.tenant_id')
      .orderBy('iam_users.id')
      .execute();
    const byTenant = new Map<number, number[]>();
    for (const row of rows) {
      const ids = byTenant.get(row.tenant_id) ?? [];
      ids.push(row.id);
      byTenant.set(row.tenant_id, ids);
    }
    return [...byTenant].map(([tenantId, userIds]) => ({ tenantId, userIds }));
  };
}
