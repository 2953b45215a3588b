import type { BusinessAuditWriter } from '../../platform/audit/business-audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { IdentityDb } from './identity.tables.js';

/**
 * One business-audit row for an identity change, inside the change's transaction: if the row
 * cannot be written the change rolls back with it.
 */
export function auditChange(
  audit: BusinessAuditWriter,
  trx: IdentityDb,
  principal: Principal,
  change: {
    action: 'create' | 'update' | 'delete';
    targetType: string;
    targetId: number;
    before: unknown;
    after: unknown;
    summary: string;
  },
  tenantId = principal.tenantId,
): Promise<void> {
  return audit.write(trx as never, {
    tenantId,
    actorId: principal.userId,
    actorName: principal.username,
    action: change.action,
    targetType: change.targetType,
    targetIds: [change.targetId],
    before: change.before,
    after: change.after,
    summary: change.summary,
  });
}
