import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import { createHttpApp, type HttpApp } from '../../platform/http/server.js';
import type { Kernel } from '../../platform/kernel.js';
import { createMetrics } from '../../platform/metrics/metrics.js';
import type { IdentityTables } from './identity.tables.js';

export function buildIdentityApp(kernel: Kernel): { app: HttpApp } {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<IdentityTables>();
  const app = createHttpApp({
    service: 'identity',
    logger,
    metrics: settings.metrics.enabled ? createMetrics('identity') : undefined,
    trustProxy: true,
  });
  trustGatewayHeaders(app, settings.gateway.signingSecret);
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  return { app };
}
