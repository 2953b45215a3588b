import Fastify from 'fastify';
import type { Registry } from 'prom-client';
import type { HttpApp } from './server.js';

/** Listens on host:port; answers the URL clients reach it at (loopback for a wildcard host). */
export async function listen(app: HttpApp, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shownHost}:${address.port}`;
}

/** The gateway's metrics on an internal listener, 127.0.0.1:METRICS_PORT: never routed to clients. */
export async function startMetricsListener(registry: Registry, port: number) {
  const server = Fastify();
  server.get('/metrics', async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  const url = await listen(server as unknown as HttpApp, '127.0.0.1', port);
  return { url, close: () => server.close() };
}
