import type { Logger } from 'pino';
import type { Settings } from './config/settings.js';
import type { BearerVerifier } from './platform/auth/guard.js';
import { OperationLogRecorder } from './platform/audit/operation-log.js';
import { openOperationLogSink } from './platform/audit/operation-log-writer.js';
import { openCache } from './platform/cache/cache.js';
import { listen, startMetricsListener } from './platform/http/listen.js';
import type { Kernel } from './platform/kernel.js';
import { createMetrics } from './platform/metrics/metrics.js';
import {
  buildGatewayApp,
  HttpForwardAuth,
  LocalForwardAuth,
  type GatewayRoute,
  type InProcessService,
} from './services/gateway/index.js';

/**
 * The front door: proxies to the services of this process, or else to `*_SERVICE_URL`;
 * forward-auth is a function call when the auth service runs here, else an HTTP request. `apps`
 * are the service apps of this process, which requests are handed to in process
 * (GATEWAY_IN_PROCESS, on by default; 0 keeps the loopback HTTP hop).
 */
export async function startGateway(
  settings: Settings,
  logger: Logger,
  kernel: Kernel | undefined,
  local: Readonly<Record<string, string>>,
  routes: readonly GatewayRoute[],
  verifyBearer: BearerVerifier | undefined,
  apps: Readonly<Record<string, InProcessService>> = {},
) {
  // Alone, the gateway fronts the services whose *_SERVICE_URL is set (and only those).
  const upstreams = kernel
    ? local
    : Object.fromEntries(
        Object.entries(settings.serviceUrls).filter(([name]) =>
          routes.some((route) => route.service === name),
        ),
      );
  const cache = kernel?.cache ?? openCache(settings.redis, logger);
  const recording = kernel ? undefined : await openGatewayRecorder(settings, logger);
  const metrics = settings.metrics.enabled ? createMetrics('gateway') : undefined;
  const gateway = await buildGatewayApp({
    routes,
    settings,
    logger,
    cache,
    upstreams,
    metrics,
    operationLog: kernel?.operationLog ?? recording?.recorder,
    errorTexts: kernel?.errorTexts,
    // Without GATEWAY_IN_PROCESS they go over loopback HTTP like remote services.
    inProcess: settings.gateway.inProcess ? apps : undefined,
    forwardAuth:
      local.auth && verifyBearer
        ? new LocalForwardAuth(verifyBearer)
        : upstreams.auth
          ? new HttpForwardAuth(upstreams.auth)
          : undefined,
  });
  const closers: Array<() => Promise<unknown>> = [() => gateway.close()];
  try {
    const url = await listen(gateway.app, settings.http.host, settings.http.port);
    const listener = metrics
      ? await startMetricsListener(metrics, settings.metrics.port, (message) =>
          logger.warn(message),
        )
      : undefined;
    if (listener) closers.push(listener.close);
    return {
      url,
      metricsUrl: listener?.url,
      async close() {
        for (const close of closers) await close().catch(() => undefined);
        await recording?.close();
        if (!kernel) await cache.close();
      },
    };
  } catch (err) {
    for (const close of closers) await close().catch(() => undefined);
    await recording?.close();
    if (!kernel) await cache.close();
    throw err;
  }
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
