import { sql } from 'kysely';
import type { AuditTables } from '../../platform/audit/business-audit.js';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import { registerOutboxGauge } from '../../platform/notify/outbox.js';
import type { ServiceMetrics } from '../../platform/metrics/metrics.js';
import { registerBusinessAuditRoutes } from './business-audit/business-audit.routes.js';
import { registerLoginLogRoutes } from './login-logs/login-logs.routes.js';
import { registerOperationLogRoutes } from './operation-logs/operation-logs.routes.js';

/**
 * The audit service: operation logs, login logs and business audit logs, each a feature folder
 * registering its own routes here; every list, stat and export is tenant-scoped in SQL.
 */
export async function buildAuditApp(
  kernel: Kernel,
): Promise<{ app: HttpApp; metrics: ServiceMetrics | undefined }> {
  const { settings, cache } = kernel;
  const db = kernel.database.db;
  const { app, metrics } = await createServiceApp(kernel, 'audit');
  if (metrics) registerOutboxGauge(metrics.registry, db, 'audit_notify_outbox');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  // Feature registrations (one line each): operation logs, login logs, business audit.
  registerOperationLogRoutes(app, db);
  const { linkKey, checkpointKey, checkpointFile } = settings.auditChain;
  registerBusinessAuditRoutes(app, db.withTables<AuditTables>(), {
    linkKey,
    checkpointKey,
    checkpointFile,
  });
  registerLoginLogRoutes(app, db);
  return { app, metrics };
}
