import Fastify from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { SERVICE_NAMES, type ServiceName, type Settings } from './config/settings.js';
import type { HttpApp } from './platform/http/server.js';
import { OperationLogRecorder } from './platform/audit/operation-log.js';
import { openOperationLogSink } from './platform/audit/operation-log-writer.js';
import { openCache } from './platform/cache/cache.js';
import { openKernel, type Kernel } from './platform/kernel.js';
import { createMetrics, type ServiceMetrics } from './platform/metrics/metrics.js';
import { buildAuthApp } from './services/auth/auth.app.js';
import type { AuthService } from './services/auth/auth.service.js';
import { LocalForwardAuth } from './services/gateway/forward-auth.js';
import { buildGatewayApp } from './services/gateway/gateway.app.js';
import { buildIdentityApp } from './services/identity/identity.app.js';
import { buildAuditApp } from './services/audit/audit.app.js';
import { buildBpmApp } from './services/bpm/bpm.app.js';
import { startBpmJobs } from './services/bpm/jobs/bpm.jobs.js';
import { startAuditJobs } from './services/audit/audit.jobs.js';
import type { IdentityTables } from './services/identity/identity.tables.js';
import { seedIdentity } from './services/identity/seed.js';

/** Default port of each service in one-service-per-process mode. */
export const SERVICE_PORTS: Record<ServiceName, number> = {
  auth: 8101,
  identity: 8102,
  bpm: 8103,
  audit: 8104,
};

export interface RunningPlatform {
  /** The gateway's base URL. */
  url: string;
  serviceUrls: Record<ServiceName, string>;
  /** The internal metrics listener (METRICS_PORT), when metrics are on. */
  metricsUrl: string | undefined;
  kernel: Kernel;
  close(): Promise<void>;
}

export function buildService(
  name: ServiceName,
  kernel: Kernel,
): Promise<{ app: HttpApp; auth?: AuthService; metrics?: ServiceMetrics | undefined }> {
  switch (name) {
    case 'auth':
      return buildAuthApp(kernel);
    case 'identity':
      return buildIdentityApp(kernel);
    case 'bpm':
      return buildBpmApp(kernel);
    case 'audit':
      return buildAuditApp(kernel);
  }
}

async function listen(app: HttpApp, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shownHost}:${address.port}`;
}

async function openKernelReady(settings: Settings, logger: Logger): Promise<Kernel> {
  const kernel = await openKernel(settings, logger);
  try {
    await seedIdentity(
      kernel.database.db.withTables<IdentityTables>(),
      { production: settings.production, adminInitialPassword: settings.auth.adminInitialPassword },
      logger,
    );
  } catch (err) {
    await kernel.close();
    throw err;
  }
  return kernel;
}

/** The gateway's metrics on an internal listener, 127.0.0.1:METRICS_PORT: never routed to clients. */
async function startMetricsListener(registry: Registry, port: number) {
  const server = Fastify();
  server.get('/metrics', async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  const url = await listen(server as unknown as HttpApp, '127.0.0.1', port);
  return { url, close: () => server.close() };
}

/**
 * All-in-one mode: one process, one kernel; every service on 127.0.0.1 (ephemeral ports unless
 * SERVICE_PORT-style URLs are set) and the gateway on HOST:PORT.
 */
export async function startPlatform(settings: Settings, logger: Logger): Promise<RunningPlatform> {
  const kernel = await openKernelReady(settings, logger);
  const serviceUrls = {} as Record<ServiceName, string>;
  const closers: Array<() => Promise<unknown>> = [];
  let auth: AuthService | undefined;
  let auditMetrics: ServiceMetrics | undefined;
  try {
    for (const name of SERVICE_NAMES) {
      const service = await buildService(name, kernel);
      auth ??= service.auth;
      if (name === 'audit') auditMetrics = service.metrics;
      closers.push(() => service.app.close());
      serviceUrls[name] = await listen(service.app, settings.http.serviceHost, 0);
    }
    const jobs = startBpmJobs(kernel);
    closers.unshift(() => jobs.stop());
    const auditJobs = startAuditJobs(kernel, auditMetrics);
    closers.unshift(() => auditJobs.stop());
    const gatewayMetrics = settings.metrics.enabled ? createMetrics('gateway') : undefined;
    const gateway = await buildGatewayApp({
      settings,
      logger,
      cache: kernel.cache,
      upstreams: serviceUrls,
      metrics: gatewayMetrics,
      operationLog: kernel.operationLog,
      // Same process as the auth service: forward-auth is a function call, not a loopback request.
      forwardAuth: auth && new LocalForwardAuth(auth.verify.bind(auth)),
    });
    closers.unshift(() => gateway.close());
    const url = await listen(gateway.app, settings.http.host, settings.http.port);
    let metricsUrl: string | undefined;
    if (gatewayMetrics) {
      const listener = await startMetricsListener(gatewayMetrics.registry, settings.metrics.port);
      closers.push(listener.close);
      metricsUrl = listener.url;
    }
    logger.info(
      {
        url,
        services: serviceUrls,
        database: kernel.database.kind,
        cache: kernel.cache.kind,
        stream: kernel.stream.kind,
      },
      'platform started',
    );
    return {
      url,
      serviceUrls,
      metricsUrl,
      kernel,
      async close() {
        for (const close of closers) await close().catch(() => undefined);
        await kernel.close();
      },
    };
  } catch (err) {
    for (const close of closers) await close().catch(() => undefined);
    await kernel.close();
    throw err;
  }
}

/** One service per process (production): `serve --service <name>`. */
export async function startService(
  name: ServiceName | 'gateway',
  settings: Settings,
  logger: Logger,
): Promise<{ url: string; close(): Promise<void> }> {
  if (name === 'gateway') {
    const cache = openCache(settings.redis, logger);
    const recording = await openGatewayRecorder(settings, logger);
    const upstreams = Object.fromEntries(
      Object.entries(settings.serviceUrls).filter(([, url]) => url !== undefined),
    ) as Record<ServiceName, string>;
    const gatewayMetrics = settings.metrics.enabled ? createMetrics('gateway') : undefined;
    const gateway = await buildGatewayApp({
      settings,
      logger,
      cache,
      upstreams,
      metrics: gatewayMetrics,
      operationLog: recording?.recorder,
    });
    const url = await listen(gateway.app, settings.http.host, settings.http.port);
    const listener = gatewayMetrics
      ? await startMetricsListener(gatewayMetrics.registry, settings.metrics.port)
      : undefined;
    return {
      url,
      async close() {
        await gateway.close();
        await listener?.close();
        await recording?.close();
        await cache.close();
      },
    };
  }
  if (!settings.database.url) {
    throw new Error(
      'one-service-per-process mode needs DATABASE_URL: the embedded database belongs to one process',
    );
  }
  const kernel = await openKernelReady(settings, logger);
  const { app, metrics } = await buildService(name, kernel);
  const auditJobs = name === 'audit' ? startAuditJobs(kernel, metrics) : undefined;
  const url = await listen(
    app,
    settings.http.serviceHost,
    settings.http.servicePort || SERVICE_PORTS[name],
  );
  return {
    url,
    async close() {
      await auditJobs?.stop();
      await app.close();
      await kernel.close();
    },
  };
}

/**
 * The one-service gateway records the requests it refuses itself (the services record the rest)
 * when it is given DATABASE_URL; it never migrates, and without the database it records nothing.
 */
async function openGatewayRecorder(settings: Settings, logger: Logger) {
  if (!settings.database.url) {
    logger.warn('gateway without DATABASE_URL: requests it refuses itself are not recorded');
    return undefined;
  }
  const sink = openOperationLogSink({ url: settings.database.url, logger });
  const recorder = new OperationLogRecorder({ write: sink.write, logger });
  return {
    recorder,
    async close() {
      await recorder.close();
      await sink.close();
    },
  };
}
