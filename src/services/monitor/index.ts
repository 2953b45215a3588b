/**
 * The monitor service's public face. Needs `MonitorPorts` (every service and where to reach it,
 * every module's declared jobs, users and platform administrators from identity, the inbox and
 * the certificates of the system service). Serves: service probes, job heartbeats, metric
 * trends, alert rules and alerts, readiness at `/health/ready`, metrics. Jobs: the metric
 * sampler (alerts are evaluated after each of its rounds). Provides nothing to others.
 */
import type { ServiceModule } from '../../platform/module.js';
import { buildMonitorApp } from './monitor.app.js';
import { MONITOR_JOBS } from './monitor.jobs.js';
import { MONITOR_PERMISSIONS } from './monitor.permissions.js';
import type { MonitorPorts } from './monitor.ports.js';

export type {
  CertificateSource,
  ExpiringCertificate,
  InboxDelivery,
  MonitoredJob,
  MonitorPorts,
} from './monitor.ports.js';
import { monitorSettings } from './monitor.settings.js';

export const monitorModule: ServiceModule<MonitorPorts, 'monitor'> = {
  name: 'monitor',
  settings: monitorSettings,
  defaultPort: 8107,
  jobs: Object.values(MONITOR_JOBS),
  permissions: MONITOR_PERMISSIONS,
  // The spec's bare `/monitor/...` paths are aliases of the `/api/v1` ones.
  routes: [{ prefix: '/api/v1/monitor' }, { prefix: '/monitor', rewritePrefix: '/api/v1/monitor' }],
  async create(kernel, ports) {
    return buildMonitorApp(kernel, ports);
  },
};
