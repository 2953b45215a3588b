import { missingPermissions, type Principal } from '../../../platform/auth/principal.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { IdentityDb } from '../identity.tables.js';
import { countStarHolders, lockStarHolders } from './grants.repo.js';

// The rules that keep a grantor within their own rights (docs/api.md, Part 2, Identity):
// - a caller grants (into a role, or to a user through roles) only codes they hold;
// - nobody changes their own role set, or a role they hold, unless they hold `*`;
// - a role a platform administrator holds is changed only by a platform administrator;
// - the last active holder of `*` in a tenant keeps it.

export const holdsEverything = (principal: Pick<Principal, 'permissions'>) =>
  principal.permissions.includes('*');

/** 40300 naming every code the caller would grant without holding it. */
export function assertCanGrant(principal: Principal, codes: Iterable<string>): void {
  const missing = missingPermissions(principal, codes);
  if (missing.length > 0) {
    throw new AppError(
      ERROR_CODES.FORBIDDEN,
      `you cannot grant permissions you do not hold: ${missing.join(', ')}`,
      { permissions: missing },
    );
  }
}

/** 40301: an action this caller may not take on this record. */
export function notAllowed(message: string): AppError {
  return new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, message);
}

/** The role rules for changing or deleting a role the given users hold. */
export function assertMayChangeRole(
  principal: Principal,
  holders: { userIds: number[]; platformAdminHolds: boolean },
): void {
  if (holders.userIds.includes(principal.userId) && !holdsEverything(principal)) {
    throw notAllowed('you cannot change a role you hold');
  }
  if (holders.platformAdminHolds && !principal.platformAdmin) {
    throw notAllowed(
      'a role a platform administrator holds is changed only by a platform administrator',
    );
  }
}

/**
 * Runs `change` inside the surrounding transaction and refuses it (40301, rolled back with the
 * transaction) when it leaves the tenant without an active holder of `*` it had before.
 */
export async function keepingStarHolder<T>(
  trx: IdentityDb,
  tenantId: number,
  change: () => Promise<T>,
): Promise<T> {
  await lockStarHolders(trx, tenantId);
  const before = await countStarHolders(trx, tenantId);
  const result = await change();
  if (before > 0 && (await countStarHolders(trx, tenantId)) === 0) {
    throw notAllowed('the last holder of * in the tenant cannot lose it');
  }
  return result;
}
