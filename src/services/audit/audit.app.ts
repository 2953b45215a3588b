import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import { createHttpApp, type HttpApp } from '../../platform/http/server.js';
import type { Kernel } from '../../platform/kernel.js';
import { createMetrics } from '../../platform/metrics/metrics.js';

/**
 * The audit service: operation logs, login logs and business audit logs, each a feature folder
 * registering its own routes here; every list, stat and export is tenant-scoped in SQL.
 */
export async function buildAuditApp(kernel: Kernel): Promise<{ app: HttpApp }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db;
  const app = await createHttpApp({
    service: 'audit',
    logger,
    metrics: settings.metrics.enabled ? createMetrics('audit') : undefined,
    trustProxy: true,
  });
  trustGatewayHeaders(app, settings.gateway.signingSecret);
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  // Feature registrations (one line each): operation logs, login logs, business audit.
  return { app };
}
