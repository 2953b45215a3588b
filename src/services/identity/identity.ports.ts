import type { PermissionSpec } from '../../platform/auth/permissions.js';

/**
 * What the identity service needs from elsewhere, declared here so that it imports no other
 * service; the composition root (src/start.ts) fits it with the BPM service's adapter.
 */
export interface IdentityPorts {
  /**
   * How many open approval tasks a user holds (pending or waiting): disabling a user answers
   * it, so the administrator can hand them on (`POST /api/v1/bpm/admin/reassign`).
   */
  openTasksOf(tenantId: number, userId: number): Promise<number>;
  /** Every module's permission codes: what roles grant from, and what GET /api/v1/permissions lists. */
  permissions: readonly PermissionSpec[];
}
