import { requirePlatformAdmin } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import type { HttpApp } from '../../platform/http/server.js';
import { jobHeartbeats } from './jobs/heartbeats.service.js';
import { metricTrends } from './metrics/trends.service.js';
import { requirePermission, type MonitorPermission } from './monitor.permissions.js';
import type { MonitorPorts } from './monitor.ports.js';
import {
  heartbeatsEnvelope,
  servicesEnvelope,
  trendsEnvelope,
  trendsQuery,
} from './monitor.schema.js';
import type { MonitorDb } from './monitor.tables.js';
import { probeServices } from './services/services.probe.js';

export const tags = ['monitor'];
/** Monitoring is the platform's: platform administrators holding the code. */
export const allow = (code: MonitorPermission) => [requirePlatformAdmin, requirePermission(code)];

export function registerMonitorRoutes(
  app: HttpApp,
  o: { db: MonitorDb; ports: MonitorPorts; now: () => Date },
): void {
  app.get(
    '/api/v1/monitor/services',
    {
      onRequest: allow('monitor:service:list'),
      schema: {
        tags,
        summary: 'Each service\u2019s readiness probe, in parallel, 3 s each',
        response: { 200: servicesEnvelope },
      },
    },
    async () => ok(await probeServices(o.ports.services, (name) => o.ports.serviceUrl(name))),
  );
  app.get(
    '/api/v1/monitor/jobs/heartbeats',
    {
      onRequest: allow('monitor:job:list'),
      schema: {
        tags,
        summary:
          'Every job\u2019s last heartbeat; stale after twice its interval or when never reported',
        response: { 200: heartbeatsEnvelope },
      },
    },
    async () => ok(await jobHeartbeats(o.db, o.ports.jobs, o.now())),
  );
  app.get(
    '/api/v1/monitor/metrics/trends',
    {
      onRequest: allow('monitor:metric:list'),
      schema: {
        tags,
        summary: 'Metric samples in buckets: 1h by minute, 24h by 15 minutes, 7d by 2 hours',
        querystring: trendsQuery,
        response: { 200: trendsEnvelope },
      },
    },
    async (request) =>
      ok(await metricTrends(o.db, request.query.range, o.now(), request.query.metric)),
  );
}
