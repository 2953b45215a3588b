import type { Kernel } from '../kernel.js';
import { createMetrics, type ServiceMetrics } from '../metrics/metrics.js';
import { createHttpApp, type HttpApp } from './server.js';

/**
 * A service's app with everything the kernel decides for every service: its logger, metrics
 * when METRICS_ENABLED, the operation log, the administrators' error texts, and one trusted
 * proxy hop (the X-Forwarded-For the gateway guard leaves is the address the gateway signed,
 * or none). Every service builds its app here, so none can leave one of them out.
 */
export async function createServiceApp(
  kernel: Kernel,
  service: string,
): Promise<{ app: HttpApp; metrics: ServiceMetrics | undefined }> {
  const metrics = kernel.settings.metrics.enabled ? createMetrics(service) : undefined;
  const app = await createHttpApp({
    service,
    logger: kernel.logger,
    metrics,
    operationLog: kernel.operationLog,
    errorTexts: kernel.errorTexts,
    trustProxy: 1,
  });
  return { app, metrics };
}
