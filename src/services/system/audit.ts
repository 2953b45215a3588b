import type { BusinessAuditWriter } from '../../platform/audit/business-audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { SystemDb } from './system.tables.js';

/**
 * One business-audit row for a system change, inside the change's transaction: if the row cannot
 * be written the change rolls back with it. Platform-wide records (error texts, templates,
 * certificates) are audited in the administrator's own tenant.
 */
export function auditChange(
  audit: BusinessAuditWriter,
  trx: SystemDb,
  principal: Principal,
  change: {
    action: 'create' | 'update' | 'delete';
    targetType: string;
    targetId: number | string;
    before: unknown;
    after: unknown;
    summary: string;
  },
): Promise<void> {
  return audit.write(trx as never, {
    tenantId: principal.tenantId,
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
