import { sql, type Selectable } from 'kysely';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import {
  conflictOnDuplicate,
  conflictOnReference,
} from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { auditChange } from '../audit.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import type { CreatePackageInput, PackageView, UpdatePackageInput } from './packages.schema.js';

type PackageRow = Selectable<IdentityTables['iam_packages']> & { tenants: number };

const toView = (row: PackageRow): PackageView => ({
  ...row,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const DUPLICATE = 'a package with this name exists';

const packages = (db: IdentityDb) =>
  db
    .selectFrom('iam_packages')
    .selectAll('iam_packages')
    .select(
      sql<number>`(SELECT count(*)::int FROM iam_tenants t WHERE t.package_id = iam_packages.id)`.as(
        'tenants',
      ),
    );

/** The menu entries a tenant's package allows, or null when it has none (every entry). */
export async function packageMenusOf(
  db: IdentityDb,
  tenantId: number,
): Promise<Set<number> | null> {
  const row = await db
    .selectFrom('iam_tenants')
    .innerJoin('iam_packages', 'iam_packages.id', 'iam_tenants.package_id')
    .select('iam_packages.menu_ids')
    .where('iam_tenants.id', '=', tenantId)
    .executeTakeFirst();
  return row ? new Set(row.menu_ids) : null;
}

/**
 * Tenant packages (platform-wide, for platform administrators): which menus tenants on them may
 * use and their storage quota. Every change in the business audit.
 */
export class PackagesService {
  constructor(private readonly o: { db: IdentityDb; audit: BusinessAuditWriter }) {}

  async list(): Promise<PackageView[]> {
    return (await packages(this.o.db).orderBy('id').execute()).map(toView);
  }

  async get(packageId: number): Promise<PackageView> {
    const row = await packages(this.o.db).where('id', '=', packageId).executeTakeFirst();
    if (!row) throw AppError.notFound('package');
    return toView(row);
  }

  async create(principal: Principal, input: CreatePackageInput): Promise<PackageView> {
    return inTransaction(this.o.db, async (trx) => {
      await this.checkMenus(trx, input.menu_ids);
      const { id } = await conflictOnDuplicate(
        trx
          .insertInto('iam_packages')
          .values({
            name: input.name,
            menu_ids: JSON.stringify([...new Set(input.menu_ids)]),
            storage_quota_mb: input.storage_quota_mb ?? 0,
            status: input.status ?? 'active',
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
        'iam_packages_name',
        DUPLICATE,
      );
      const after = toView((await packages(trx).where('id', '=', id).executeTakeFirst())!);
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'package',
        targetId: id,
        before: null,
        after,
        summary: `created package ${after.name}`,
      });
      return after;
    });
  }

  async update(principal: Principal, packageId: number, input: UpdatePackageInput) {
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.locked(trx, packageId);
      if (input.menu_ids) await this.checkMenus(trx, input.menu_ids);
      const { menu_ids, ...rest } = input;
      await conflictOnDuplicate(
        trx
          .updateTable('iam_packages')
          .set({
            ...rest,
            ...(menu_ids ? { menu_ids: JSON.stringify([...new Set(menu_ids)]) } : {}),
            updated_at: new Date(),
          })
          .where('id', '=', packageId)
          .execute(),
        'iam_packages_name',
        DUPLICATE,
      );
      const after = toView((await packages(trx).where('id', '=', packageId).executeTakeFirst())!);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'package',
        targetId: packageId,
        before: toView(before),
        after,
        summary: `updated package ${after.name}`,
      });
      return after;
    });
  }

  async remove(principal: Principal, packageId: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.locked(trx, packageId);
      await conflictOnReference(
        trx.deleteFrom('iam_packages').where('id', '=', packageId).execute(),
        'tenants are on this package: move them first',
      );
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'package',
        targetId: packageId,
        before: toView(before),
        after: null,
        summary: `deleted package ${before.name}`,
      });
    });
  }

  private async locked(db: IdentityDb, packageId: number) {
    const row = await packages(db).where('id', '=', packageId).forUpdate().executeTakeFirst();
    if (!row) throw AppError.notFound('package');
    return row;
  }

  /** Every id names a menu entry (40001 on `menu_ids.<i>` otherwise). */
  private async checkMenus(db: IdentityDb, ids: number[]) {
    if (ids.length === 0) return;
    const found = new Set(
      (
        await db
          .selectFrom('iam_menus')
          .select('id')
          .where('id', 'in', [...new Set(ids)])
          .execute()
      ).map((r) => r.id),
    );
    const problems = ids.flatMap((menuId, i) =>
      found.has(menuId)
        ? []
        : [{ field: `menu_ids.${i}`, rule: 'option' as const, message: `no menu entry ${menuId}` }],
    );
    if (problems.length > 0) throw AppError.validation(problems);
  }
}
