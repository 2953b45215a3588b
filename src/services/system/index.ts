/**
 * The system service's public face. Needs nothing from others yet. Serves: the editable error
 * texts, notices (and the effective ones every user reads), tenant settings and dictionaries;
 * readiness at `/health/ready`, metrics. No jobs.
 */
import type { ServiceModule } from '../../platform/module.js';
import { buildSystemApp } from './system.app.js';
import { SYSTEM_PERMISSIONS } from './system.permissions.js';
import type { SystemPorts } from './system.ports.js';

export type { SystemPorts } from './system.ports.js';

export const systemModule: ServiceModule<SystemPorts, 'system'> = {
  name: 'system',
  permissions: SYSTEM_PERMISSIONS,
  defaultPort: 8106,
  routes: [{ prefix: '/api/v1/system' }, { prefix: '/api/v1/notices' }],
  async create(kernel, ports) {
    return { app: await buildSystemApp(kernel, ports), jobs: [] };
  },
};
