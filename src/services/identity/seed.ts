import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { hashPasswordOnce } from '../../platform/auth/passwords.js';
import type { IdentityTables } from './identity.tables.js';

export const DEFAULT_TENANT = { id: 1, code: 'default', name: 'Default tenant' } as const;
export const SUPER_ADMIN_ROLE = {
  code: 'super_admin',
  name: 'Super administrator',
  permissions: ['*'],
};
const DEV_ADMIN_PASSWORD = 'admin123';

export interface SeedOptions {
  production: boolean;
  /** ADMIN_INITIAL_PASSWORD; required in production, `admin123` elsewhere. */
  adminInitialPassword?: string | undefined;
}

// Any constant works; it only has to be the same in every process.
const SEED_LOCK_KEY = 727_001;

/**
 * First start of an empty database: tenant `default` (id 1) and `admin`, a super admin (`*`)
 * and platform admin. In production the password comes from ADMIN_INITIAL_PASSWORD and must be
 * changed at the first sign-in. Idempotent, and safe when many processes start at once: the
 * check and the inserts run in one transaction under an advisory lock, so one process seeds and
 * the others, once it commits, find the tenant and change nothing.
 */
export async function seedIdentity(
  db: Kysely<IdentityTables>,
  options: SeedOptions,
  logger: Logger,
): Promise<void> {
  const seeded = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    const existing = await trx
      .selectFrom('iam_tenants')
      .select('id')
      .where('id', '=', DEFAULT_TENANT.id)
      .executeTakeFirst();
    if (existing) return false;
    if (options.production && !options.adminInitialPassword) {
      throw new Error('ADMIN_INITIAL_PASSWORD must be set for the first production start');
    }
    const passwordHash = await hashPasswordOnce(options.adminInitialPassword ?? DEV_ADMIN_PASSWORD);
    await trx
      .insertInto('iam_tenants')
      .values({
        id: DEFAULT_TENANT.id,
        code: DEFAULT_TENANT.code,
        name: DEFAULT_TENANT.name,
        status: 'active',
        storage_quota_mb: 0,
      })
      .execute();
    // The explicit id 1 leaves the identity sequence behind; move it past the seeded row.
    await sql`SELECT setval(pg_get_serial_sequence('iam_tenants', 'id'), (SELECT max(id) FROM iam_tenants))`.execute(
      trx,
    );
    const role = await createSuperAdminRole(trx, DEFAULT_TENANT.id);
    const admin = await trx
      .insertInto('iam_users')
      .values({
        tenant_id: DEFAULT_TENANT.id,
        username: 'admin',
        password_hash: passwordHash,
        nickname: 'Administrator',
        status: 'active',
        is_platform_admin: true,
        must_change_password: options.production,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('iam_user_roles').values({ user_id: admin.id, role_id: role }).execute();
    return true;
  });
  if (seeded) logger.info('seeded tenant "default" and user "admin"');
}

/** The `*` role every tenant's first administrator holds. */
export async function createSuperAdminRole(
  db: Kysely<IdentityTables>,
  tenantId: number,
): Promise<number> {
  const row = await db
    .insertInto('iam_roles')
    .values({
      tenant_id: tenantId,
      code: SUPER_ADMIN_ROLE.code,
      name: SUPER_ADMIN_ROLE.name,
      permissions: JSON.stringify(SUPER_ADMIN_ROLE.permissions),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
