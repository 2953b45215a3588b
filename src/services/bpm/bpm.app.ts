import { sql } from 'kysely';
import { failOpen } from '../../platform/cache/fail-open.js';
import { trustGatewayClientIp, verifyBearerTokens } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import { registerOutboxGauge } from '../../platform/notify/outbox.js';
import type { BpmPorts } from './bpm.ports.js';
import type { BpmTables } from './bpm.tables.js';
import { registerDefinitionRoutes } from './definitions/definitions.routes.js';
import { DefinitionsService } from './definitions/definitions.service.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { runKeyedHandlersWithReservation } from './idempotency/idempotency.hooks.js';
import { registerDirectoryRoutes } from './directory/directory.routes.js';
import { AbsenceCache } from './out-of-office/absence-cache.js';
import { registerOutOfOfficeRoutes } from './out-of-office/out-of-office.routes.js';
import { OutOfOfficeService } from './out-of-office/out-of-office.service.js';
import { registerCcRoutes } from './cc/cc.routes.js';
import { CcService } from './cc/cc.service.js';
import { registerInstanceRoutes } from './instances/instances.routes.js';
import { InstancesService } from './instances/instances.service.js';
import { internalTokenGuard } from './internal/internal-token.js';
import { registerInternalRoutes } from './internal/internal.routes.js';
import { InternalService } from './internal/internal.service.js';
import { InstanceRunner } from './runtime/runner.js';
import { registerSimulationRoutes } from './simulation/simulation.routes.js';
import { SimulationService } from './simulation/simulation.service.js';
import { registerTaskRoutes } from './tasks/tasks.routes.js';
import { TasksService } from './tasks/tasks.service.js';
import { registerStatsRoutes } from './stats/stats.routes.js';
import { StatsService } from './stats/stats.service.js';

// Health and the internal endpoints (X-Internal-Token) need no bearer token.
const isPublic = (path: string) =>
  path === '/health/ready' ||
  path === '/metrics' ||
  path === '/api/v1/bpm/health/ready' ||
  path.startsWith('/api/v1/bpm/internal/');

export async function buildBpmApp(kernel: Kernel, ports: BpmPorts): Promise<{ app: HttpApp }> {
  const { settings, cache } = kernel;
  const db = kernel.database.db.withTables<BpmTables>();
  const { app, metrics } = await createServiceApp(kernel, 'bpm');
  if (metrics) registerOutboxGauge(metrics.registry, db, 'bpm_outbox');
  // BPM is not behind forward-auth: it validates the Bearer JWT itself (signature, expiry,
  // session not revoked, user active), with the auth service's own rules (a port).
  trustGatewayClientIp(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  verifyBearerTokens(app, ports.verifyBearer, isPublic);
  registerReadiness(app, { database: () => sql`SELECT 1`.execute(db), cache: () => cache.ping() }, [
    '/health/ready',
    '/api/v1/bpm/health/ready',
  ]);
  const { directoryOf } = ports;
  registerDefinitionRoutes(
    app,
    new DefinitionsService({ db, directoryOf, audit: kernel.businessAudit }),
    directoryOf,
  );
  const idempotency = new IdempotencyService({ db });
  // Before the routes: every keyed handler runs holding its reservation (see fence).
  runKeyedHandlersWithReservation(app, idempotency);
  const absences = new AbsenceCache(failOpen(cache, kernel.logger, 'out-of-office periods'));
  const runner = new InstanceRunner({
    db,
    fence: (trx) => idempotency.fence(trx),
    failpoints: kernel.failpoints,
    notify: { enabled: settings.notify.enabled, inbox: ports.inbox !== undefined },
    directoryOf,
    filesOf: ports.filesOf,
    absences,
  });
  const instances = new InstancesService({
    db,
    runner,
    directoryOf,
    audit: kernel.businessAudit,
    filesOf: ports.filesOf,
  });
  registerInstanceRoutes(app, instances, idempotency);
  registerTaskRoutes(
    app,
    new TasksService({ db, runner, instances, audit: kernel.businessAudit }),
    idempotency,
  );
  registerCcRoutes(app, new CcService({ db }));
  registerDirectoryRoutes(app, directoryOf);
  registerOutOfOfficeRoutes(
    app,
    new OutOfOfficeService({ db, runner, directoryOf, audit: kernel.businessAudit, absences }),
  );
  registerSimulationRoutes(app, new SimulationService({ db, directoryOf }));
  registerInternalRoutes(
    app,
    new InternalService({ db, instances }),
    internalTokenGuard(settings.bpm.internalToken, settings.production),
    idempotency,
  );
  registerStatsRoutes(app, new StatsService({ db }));
  return { app };
}
