import { sql } from 'kysely';
import { verifyBearerTokens } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import { createHttpApp, type HttpApp } from '../../platform/http/server.js';
import type { Kernel } from '../../platform/kernel.js';
import { createMetrics } from '../../platform/metrics/metrics.js';
import { createAuthService } from '../auth/auth.app.js';
import { createTenantDirectory, type TenantDirectory } from '../identity/assignee-directory.js';
import type { IdentityTables } from '../identity/identity.tables.js';
import type { BpmTables } from './bpm.tables.js';
import { registerDefinitionRoutes } from './definitions/definitions.routes.js';
import { DefinitionsService } from './definitions/definitions.service.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { registerInstanceRoutes } from './instances/instances.routes.js';
import { InstancesService } from './instances/instances.service.js';
import { internalTokenGuard, registerInternalRoutes } from './instances/internal.js';
import { InstanceRunner } from './instances/runner.js';
import { SimulationService } from './instances/simulation.service.js';
import { TasksService } from './instances/tasks.service.js';
import { registerStatsRoutes } from './stats/stats.routes.js';
import { StatsService } from './stats/stats.service.js';

export type TenantDirectoryFactory = (tenantId: number) => TenantDirectory;

// Health and the internal endpoints (X-Internal-Token) need no bearer token.
const isPublic = (path: string) =>
  path === '/health/ready' ||
  path === '/metrics' ||
  path === '/api/v1/bpm/health/ready' ||
  path.startsWith('/api/v1/bpm/internal/');

export async function buildBpmApp(kernel: Kernel): Promise<{ app: HttpApp }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<BpmTables>();
  const identityDb = kernel.database.db.withTables<IdentityTables>();
  const app = await createHttpApp({
    service: 'bpm',
    logger,
    metrics: settings.metrics.enabled ? createMetrics('bpm') : undefined,
    operationLog: kernel.operationLog,
    trustProxy: true,
  });
  // BPM is not behind forward-auth: it validates the Bearer JWT itself (signature, expiry,
  // session not revoked, user active), with the auth service's own rules.
  const auth = createAuthService(kernel);
  verifyBearerTokens(app, auth.verify.bind(auth), isPublic);
  registerReadiness(app, { database: () => sql`SELECT 1`.execute(db), cache: () => cache.ping() }, [
    '/health/ready',
    '/api/v1/bpm/health/ready',
  ]);
  const directoryOf: TenantDirectoryFactory = (tenantId) =>
    createTenantDirectory(identityDb, tenantId);
  registerDefinitionRoutes(app, new DefinitionsService({ db }), directoryOf);
  const runner = new InstanceRunner({ db, notify: { enabled: settings.bpm.notify.enabled } });
  const instances = new InstancesService({ db, runner });
  const idempotency = new IdempotencyService({ db });
  registerInstanceRoutes(
    app,
    instances,
    new TasksService({ db, runner, instances }),
    new SimulationService({ db }),
    idempotency,
  );
  registerInternalRoutes(
    app,
    db,
    instances,
    internalTokenGuard(settings.bpm.internalToken, settings.production),
    idempotency,
  );
  registerStatsRoutes(app, new StatsService({ db }));
  return { app };
}
