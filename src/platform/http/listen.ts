import Fastify from 'fastify';
import type { ServiceMetrics } from '../metrics/metrics.js';
import type { HttpApp } from './server.js';

/**
 * Listens on host:port; answers the URL clients reach it at (loopback for a wildcard host).
 * `exclusive` (default false) keeps the listener to this process under the cluster module, which
 * otherwise shares it with the other workers (port 0 included: each worker's n-th listen(0) gets
 * the same port).
 */
export async function listen(
  app: HttpApp,
  host: string,
  port: number,
  exclusive = false,
): Promise<string> {
  await app.listen({ host, port, exclusive });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shownHost}:${address.port}`;
}

/**
 * The gateway's metrics on an internal listener, 127.0.0.1:METRICS_PORT: never routed to clients.
 * Metrics are an operator's aid, not the platform's work: when the port is taken (another copy
 * running), `warn` is told in words naming METRICS_PORT and the platform runs without the
 * listener (answers undefined). Any other failure names METRICS_PORT and stops the start.
 */
export async function startMetricsListener(
  metrics: Pick<ServiceMetrics, 'exposition' | 'contentType'>,
  port: number,
  warn: (message: string) => void,
): Promise<{ url: string; close: () => Promise<void> } | undefined> {
  const server = Fastify();
  server.get('/metrics', async (_request, reply) => {
    reply.type(metrics.contentType);
    return metrics.exposition();
  });
  try {
    const url = await listen(server as unknown as HttpApp, '127.0.0.1', port);
    return { url, close: () => server.close() };
  } catch (err) {
    await server.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      warn(
        `METRICS_PORT ${port} on 127.0.0.1 is already in use (is another copy running?): ` +
          'the platform runs without its metrics listener; set METRICS_PORT to a free port, ' +
          'or METRICS_ENABLED=false',
      );
      return undefined;
    }
    throw new Error(
      `the metrics listener could not listen on 127.0.0.1:${port} (METRICS_PORT): ${(err as Error).message}`,
      { cause: err },
    );
  }
}
