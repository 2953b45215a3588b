/**
 * The audit service's public face. Needs `AuditPorts` (optional: the inbox and the templates
 * the new-device notice uses). Serves: operation logs, login logs, business
 * audit logs, readiness at `/health/ready`, metrics. Jobs: the login-event consumer, the
 * new-device notice outbox, chain checkpoints and log retention. Provides nothing to other
 * services (every service writes operation logs and business audit rows through
 * src/platform/audit).
 */
import { AUDIT_PERMISSIONS } from './audit.permissions.js';
import type { ServiceModule } from '../../platform/module.js';
import { buildAuditApp } from './audit.app.js';
import { AUDIT_JOBS, auditJobs } from './audit.jobs.js';
import type { AuditPorts } from './audit.ports.js';
import { auditSettings } from './audit.settings.js';

export type { AuditPorts } from './audit.ports.js';

export const auditModule: ServiceModule<AuditPorts, 'audit'> = {
  name: 'audit',
  settings: auditSettings,
  permissions: AUDIT_PERMISSIONS,
  defaultPort: 8104,
  jobs: Object.values(AUDIT_JOBS),
  routes: ['operation-logs', 'login-logs', 'logs'].map((area) => ({ prefix: `/api/v1/${area}` })),
  async create(kernel, ports) {
    const { app, metrics } = await buildAuditApp(kernel);
    return { app, jobs: auditJobs(kernel, ports, metrics) };
  },
};
