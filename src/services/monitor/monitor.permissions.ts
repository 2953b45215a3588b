import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/**
 * The permission codes the monitor declares. Monitoring is the platform's, not a tenant's: every
 * route also requires a platform administrator (a tenant's `*` is not enough).
 */
export const MONITOR_PERMISSIONS = [
  {
    code: 'monitor:service:list',
    platformOnly: true,
    description: 'See the services\u2019 health probes (GET /api/v1/monitor/services)',
    routes: ['GET /api/v1/monitor/services'],
  },
  {
    code: 'monitor:job:list',
    platformOnly: true,
    description: 'See the background jobs\u2019 heartbeats (GET /api/v1/monitor/jobs/heartbeats)',
    routes: ['GET /api/v1/monitor/jobs/heartbeats'],
  },
  {
    code: 'monitor:metric:list',
    platformOnly: true,
    description: 'See metric trends (GET /api/v1/monitor/metrics/trends)',
    routes: ['GET /api/v1/monitor/metrics/trends'],
  },
  {
    code: 'monitor:alert:list',
    platformOnly: true,
    description: 'See alert rules and alerts',
    routes: [
      'GET /api/v1/monitor/alert-rules',
      'GET /api/v1/monitor/alert-rules/:id',
      'GET /api/v1/monitor/alerts',
    ],
  },
  {
    code: 'monitor:alert:create',
    platformOnly: true,
    description: 'Create alert rules',
    routes: ['POST /api/v1/monitor/alert-rules'],
  },
  {
    code: 'monitor:alert:update',
    platformOnly: true,
    description: 'Change alert rules',
    routes: ['PUT /api/v1/monitor/alert-rules/:id'],
  },
  {
    code: 'monitor:alert:delete',
    platformOnly: true,
    description: 'Delete alert rules',
    routes: ['DELETE /api/v1/monitor/alert-rules/:id'],
  },
] as const satisfies readonly PermissionSpec[];

export type MonitorPermission = (typeof MONITOR_PERMISSIONS)[number]['code'];

export const { requirePermission } = permissionGuards(MONITOR_PERMISSIONS.map((p) => p.code));
