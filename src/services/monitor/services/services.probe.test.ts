import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBE_TIMEOUT_MS, probeService } from './services.probe.js';

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('probeService', () => {
  it('reports a 503 readiness as down, naming the checks that failed', async () => {
    const url = await serve((_req, res) => {
      res.statusCode = 503;
      res.end(JSON.stringify({ code: 50300, message: 'not ready', data: { failed: ['cache'] } }));
    });
    expect(await probeService('files', url)).toMatchObject({
      name: 'files',
      status: 'down',
      error: 'HTTP 503: cache',
    });
  });

  it('reports a service that does not listen as down with the transport error', async () => {
    const url = await serve((_req, res) => res.end());
    server!.close();
    server = undefined;
    const health = await probeService('bpm', url);
    expect(health.status).toBe('down');
    expect(health.error).toMatch(/ECONNREFUSED/);
  });

  it(
    'gives up on a service that does not answer within 3 s',
    async () => {
      const url = await serve(() => undefined);
      const health = await probeService('audit', url);
      expect(health).toMatchObject({
        status: 'down',
        error: `no answer within ${PROBE_TIMEOUT_MS} ms`,
      });
      expect(health.latency_ms).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 50);
      expect(health.latency_ms).toBeLessThan(PROBE_TIMEOUT_MS + 1000);
      server!.closeAllConnections();
    },
    PROBE_TIMEOUT_MS + 3000,
  );
});
