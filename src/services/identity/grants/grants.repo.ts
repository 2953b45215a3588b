import { sql } from 'kysely';
import type { IdentityDb } from '../identity.tables.js';

/**
 * Serialises, per tenant, every change that could take `*` away from someone, so two
 * concurrent changes cannot each remove one of the last two holders. Taken first in the
 * transaction, before any row lock, so it never closes a lock cycle.
 */
export async function lockStarHolders(db: IdentityDb, tenantId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`iam:star-holders:${tenantId}`}, 0))`.execute(
    db,
  );
}

/** Active users of the tenant holding `*` through one of their roles. */
export async function countStarHolders(db: IdentityDb, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('iam_users')
    .innerJoin('iam_user_roles', 'iam_user_roles.user_id', 'iam_users.id')
    .innerJoin('iam_roles', 'iam_roles.id', 'iam_user_roles.role_id')
    .select(sql<number>`count(DISTINCT iam_users.id)`.as('n'))
    .where('iam_users.tenant_id', '=', tenantId)
    .where('iam_roles.tenant_id', '=', tenantId)
    .where('iam_users.status', '=', 'active')
    .where(sql<boolean>`iam_roles.permissions @> '["*"]'::jsonb`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The permission codes the given roles of the tenant carry, all together. */
export async function permissionsOfRoles(
  db: IdentityDb,
  tenantId: number,
  roleIds: number[],
): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('iam_roles')
    .select('permissions')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', roleIds)
    .execute();
  return rows.flatMap((r) => r.permissions);
}
