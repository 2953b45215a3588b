import { sql } from 'kysely';
import type { IdentityDb } from './identity.tables.js';

/** An active account of an active tenant, as password reset and external sign-in find it. */
export interface AccountMatch {
  id: number;
  tenant_id: number;
  username: string;
  email: string | null;
}

const activeAccounts = (db: IdentityDb, tenantCode: string) =>
  db
    .selectFrom('iam_users')
    .innerJoin('iam_tenants', 'iam_tenants.id', 'iam_users.tenant_id')
    .select(['iam_users.id', 'iam_users.tenant_id', 'iam_users.username', 'iam_users.email'])
    .where('iam_tenants.code', '=', tenantCode)
    .where('iam_tenants.status', '=', 'active')
    .where('iam_users.status', '=', 'active');

/** By username, or by e-mail (case-insensitive); the oldest account when several match. */
export function findAccount(
  db: IdentityDb,
  tenantCode: string,
  usernameOrEmail: string,
): Promise<AccountMatch | undefined> {
  return activeAccounts(db, tenantCode)
    .where((eb) =>
      eb.or([
        eb('iam_users.username', '=', usernameOrEmail),
        eb(sql`lower(iam_users.email)`, '=', usernameOrEmail.toLowerCase()),
      ]),
    )
    .orderBy('iam_users.id')
    .limit(1)
    .executeTakeFirst();
}
