import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/** The permission codes the audit service declares: what each allows, the routes that need it. */
export const AUDIT_PERMISSIONS = [
  {
    code: 'system:log:operation',
    description: 'Read, summarize and export operation logs',
    routes: [
      'GET /api/v1/operation-logs',
      'GET /api/v1/operation-logs/:id',
      'GET /api/v1/operation-logs/stats',
      'GET /api/v1/operation-logs/export',
    ],
  },
  {
    code: 'system:log:operation:clear',
    description: 'Delete operation logs older than N days',
    routes: ['DELETE /api/v1/operation-logs/clear'],
  },
  {
    code: 'system:log:login',
    description: 'Read and summarize login logs',
    routes: [
      'GET /api/v1/login-logs',
      'GET /api/v1/login-logs/stats',
      'GET /api/v1/login-logs/trend',
    ],
  },
  {
    code: 'system:log:login:clear',
    description: 'Delete login logs older than N days',
    routes: ['DELETE /api/v1/login-logs/clear'],
  },
  {
    code: 'system:log:audit',
    description: 'Read, verify and export business audit logs',
    routes: [
      'GET /api/v1/logs/audit',
      'GET /api/v1/logs/audit/export',
      'GET /api/v1/logs/audit/verify',
    ],
  },
] as const satisfies readonly PermissionSpec[];

export type AuditPermission = (typeof AUDIT_PERMISSIONS)[number]['code'];

/** `requirePermission` and `assertPermission` that take only these codes (a type error otherwise). */
export const { requirePermission, assertPermission } = permissionGuards(
  AUDIT_PERMISSIONS.map((p) => p.code),
);
