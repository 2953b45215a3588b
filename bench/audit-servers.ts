/**
 * The servers of the audit benchmark, in one child process so the load generator never shares
 * their CPU: one kernel on a scratch PostgreSQL database, and two copies of the platform built
 * from it the way `startPlatform` builds one (the four service apps on 127.0.0.1, the gateway in
 * front with in-process forward-auth), the same in all but one thing:
 *   - "on": every service app records into the kernel's operation-log recorder (as shipped);
 *   - "off": the service apps are given no recorder (createHttpApp without `operationLog`).
 * Background jobs are not started in either. Prints one JSON line with the URLs and the gateway's
 * signing key (a random one per run, so the runner can also call a service directly, as the
 * gateway would); reads commands from stdin (`gc`: run a full GC, answers `BENCH_GC_DONE`).
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { loadSettings } from '../src/start.js';
import type { HttpApp } from '../src/platform/http/server.js';
import { openKernel, type Kernel } from '../src/platform/kernel.js';
import { createLogger } from '../src/platform/logging/logger.js';
import { createMetrics } from '../src/platform/metrics/metrics.js';
import { createBearerVerifier } from '../src/services/auth/index.js';
import { LocalForwardAuth } from '../src/services/gateway/forward-auth.js';
import { buildGatewayApp } from '../src/services/gateway/gateway.app.js';
import type { IdentityTables } from '../src/services/identity/identity.tables.js';
import { identityDirectory } from '../src/services/identity/index.js';
import { seedIdentity } from '../src/services/identity/seed.js';
import { buildService, GATEWAY_ROUTES, SERVICE_NAMES, type ServiceName } from '../src/start.js';
import { createScratchDatabase } from '../test/helpers/scratch-database.js';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const scratch = await createScratchDatabase(databaseUrl, 'approva_bench');
const settings = loadSettings({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: '0',
  METRICS_PORT: '0',
  METRICS_ENABLED: 'true',
  LOGIN_CAPTCHA: 'off',
  DATA_DIR: 'memory://',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
  GATEWAY_SIGNING_SECRET: randomBytes(32).toString('hex'),
  GATEWAY_RATE_AVERAGE: '10000000',
  GATEWAY_RATE_BURST: '10000000',
  DATABASE_URL: scratch.url,
});
const logger = createLogger('warn');
const kernel = await openKernel(settings, logger);
await seedIdentity(
  kernel.database.db.withTables<IdentityTables>(),
  { production: false, adminInitialPassword: settings.adminInitialPassword },
  logger,
);

const closers: Array<() => Promise<unknown>> = [];

async function listen(app: HttpApp): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** One platform copy over `k`: what startPlatform does, minus the jobs and metrics listener. */
async function buildPlatform(k: Kernel) {
  const serviceUrls = {} as Record<ServiceName, string>;
  for (const name of SERVICE_NAMES) {
    const service = await buildService(name, k);
    closers.push(() => service.app.close());
    serviceUrls[name] = await listen(service.app);
  }
  const gateway = await buildGatewayApp({
    routes: GATEWAY_ROUTES,
    settings,
    logger,
    cache: k.cache,
    upstreams: serviceUrls,
    metrics: createMetrics('gateway'),
    forwardAuth: new LocalForwardAuth(createBearerVerifier(k, { users: identityDirectory(k) })),
  });
  closers.unshift(() => gateway.close());
  return { gateway: await listen(gateway.app), services: serviceUrls };
}

const on = await buildPlatform(kernel);
// The fair "off": the apps never register the hooks. Kernel types the recorder as required;
// every service app passes it straight to createHttpApp, whose option is optional.
const off = await buildPlatform({ ...kernel, operationLog: undefined } as unknown as Kernel);

process.stdout.write(
  `BENCH_SERVERS ${JSON.stringify({
    on,
    off,
    scratchUrl: scratch.url,
    cache: kernel.cache.kind,
    signingSecret: settings.gateway.signingSecret,
  })}\n`,
);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'gc') {
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write('BENCH_GC_DONE\n');
  }
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  for (const close of closers) await close().catch(() => undefined);
  await kernel.close().catch(() => undefined);
  await scratch.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
