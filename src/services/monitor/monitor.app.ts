import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import type { JobSpec } from '../../platform/jobs/catalogue.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import { AlertEvaluator } from './alerts/alert-evaluator.js';
import { registerAlertRoutes } from './alerts/alerts.routes.js';
import { AlertRulesService } from './alerts/rules.service.js';
import { MetricSampler } from './metrics/sampler.js';
import { monitorJobs } from './monitor.jobs.js';
import type { MonitorPorts } from './monitor.ports.js';
import { registerMonitorRoutes } from './monitor.routes.js';
import type { MonitorTables } from './monitor.tables.js';

/**
 * The monitor service: health probes of every service, the jobs' heartbeats, the metric sampler
 * and its trends, alert rules evaluated after each sampler round, certificate expiry alerts.
 */
export async function buildMonitorApp(
  kernel: Kernel,
  ports: MonitorPorts,
): Promise<{ app: HttpApp; jobs: JobSpec[] }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<MonitorTables>();
  const { app } = await createServiceApp(kernel, 'monitor');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  const now = () => new Date();
  registerMonitorRoutes(app, { db, ports, now });
  const rules = new AlertRulesService({ db, audit: kernel.businessAudit, ports, now });
  registerAlertRoutes(app, db, rules);
  const evaluator = new AlertEvaluator({
    db,
    ports,
    logger: logger.child({ job: 'monitor.metric_sampler' }),
  });
  const sampler = new MetricSampler({
    db,
    pingDatabase: () => sql`SELECT 1`.execute(db),
    pingCache: () => cache.ping(),
    poolUse: kernel.database.poolUse,
    services: ports.services,
    serviceUrl: ports.serviceUrl,
    intervalMs: settings.monitor.sampleIntervalMs,
    logger: logger.child({ job: 'monitor.metric_sampler' }),
  });
  app.addHook('onClose', async () => sampler.close());
  return { app, jobs: monitorJobs(settings, sampler, (at) => evaluator.evaluate(at)) };
}
