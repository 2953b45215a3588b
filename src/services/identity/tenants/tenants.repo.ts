import type { ExpressionBuilder } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import type { TenantFilter } from './tenants.schema.js';

export interface TenantRow {
  id: number;
  code: string;
  name: string;
  status: 'active' | 'disabled';
  storage_quota_mb: number;
  package_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface TenantPatch {
  name?: string;
  status?: 'active' | 'disabled';
  storage_quota_mb?: number;
  package_id?: number | null;
}

/** The unique constraint on `iam_tenants.code` (PostgreSQL's default name for a column UNIQUE). */
export const TENANT_CODE_CONSTRAINT = 'iam_tenants_code_key';

const TENANT_COLUMNS = [
  'id',
  'code',
  'name',
  'status',
  'storage_quota_mb',
  'package_id',
  'created_at',
  'updated_at',
] as const;

function matching(filter: TenantFilter) {
  return (eb: ExpressionBuilder<IdentityTables, 'iam_tenants'>) => {
    if (!filter.keyword) return eb.and([]);
    const pattern = containsPattern(filter.keyword);
    return eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern)]);
  };
}

/** Every tenant (platform administration is not tenant-scoped). */
export async function listTenants(
  db: IdentityDb,
  filter: TenantFilter,
  page: Page,
): Promise<{ rows: TenantRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('iam_tenants')
      .select(TENANT_COLUMNS)
      .where(matching(filter))
      .orderBy('id')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('iam_tenants')
      .where(matching(filter))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findTenant(db: IdentityDb, tenantId: number): Promise<TenantRow | undefined> {
  return db
    .selectFrom('iam_tenants')
    .select(TENANT_COLUMNS)
    .where('id', '=', tenantId)
    .executeTakeFirst();
}

/** Locks a tenant row: concurrent user inserts into it (key-share on the tenant) wait or finish first. */
export async function lockTenantForUpdate(db: IdentityDb, tenantId: number): Promise<boolean> {
  const row = await db
    .selectFrom('iam_tenants')
    .select('id')
    .where('id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export function insertTenant(
  db: IdentityDb,
  tenant: { code: string; name: string; storage_quota_mb: number; package_id: number | null },
): Promise<TenantRow> {
  return db
    .insertInto('iam_tenants')
    .values({ ...tenant, status: 'active' })
    .returning(TENANT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateTenant(
  db: IdentityDb,
  tenantId: number,
  patch: TenantPatch,
): Promise<TenantRow | undefined> {
  return db
    .updateTable('iam_tenants')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', tenantId)
    .returning(TENANT_COLUMNS)
    .executeTakeFirst();
}

/** Deletes the tenant; its departments, users and roles go with it (ON DELETE CASCADE). */
export async function deleteTenant(db: IdentityDb, tenantId: number): Promise<boolean> {
  const row = await db
    .deleteFrom('iam_tenants')
    .where('id', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
