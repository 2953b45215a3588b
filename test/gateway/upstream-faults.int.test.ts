import { createServer, type ServerResponse } from 'node:http';
import { GATEWAY_ROUTES } from '../../src/start.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/start.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { buildGatewayApp } from '../../src/services/gateway/gateway.app.js';
import { startTestPlatform, TEST_JWT_SECRET, type TestPlatform } from '../helpers/platform.js';

// RELIABILITY: an upstream that fails half-way through its answer. The client must see the
// failure at once (a cut connection, never a complete-looking body), and the gateway goes on
// serving.

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

/** An identity upstream whose answer to every request is written by `answer`. */
async function faultyUpstream(answer: (res: ServerResponse) => void) {
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server, close: () => server.closeAllConnections() };
}

async function gatewayTo(identity: string, logs?: string[]) {
  const settings = loadSettings({
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    GATEWAY_UPSTREAM_TIMEOUT: '500ms',
  });
  const gateway = await buildGatewayApp({
    routes: GATEWAY_ROUTES,
    settings,
    logger: logs
      ? createLogger('info', {}, { write: (line: string) => void logs.push(line) })
      : createLogger('silent'),
    cache: platform.kernel.cache,
    upstreams: { ...platform.serviceUrls, identity },
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = gateway.app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: gateway.close };
}

/** Reads the whole answer; resolves with how it ended and how long it took. */
async function readAll(url: string) {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${admin}` },
      signal: AbortSignal.timeout(5000),
    });
    const body = await res.text();
    return { outcome: `complete ${res.status} ${body.length}`, ms: performance.now() - started };
  } catch (err) {
    const cause = (err as Error).name === 'TimeoutError' ? 'hung' : 'cut';
    return { outcome: cause, ms: performance.now() - started };
  }
}

describe('an upstream that fails mid-answer', () => {
  it('cuts the client connection when the upstream dies after part of a sized body', async () => {
    const upstream = await faultyUpstream((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"code":200,"message":"success","data":"');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const gateway = await gatewayTo(upstream.url);
    try {
      const result = await readAll(`${gateway.url}/api/v1/users`);
      expect(result.outcome).toBe('cut');
      expect(result.ms).toBeLessThan(3000);
      // The gateway itself is unharmed.
      expect((await fetch(`${gateway.url}/api/v1/health/live`)).status).toBeLessThan(500);
    } finally {
      await gateway.close();
      upstream.close();
    }
  });

  it('cuts the client connection when a chunked upstream answer dies', async () => {
    const upstream = await faultyUpstream((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":200,"message":"success","data":"');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const gateway = await gatewayTo(upstream.url);
    try {
      const result = await readAll(`${gateway.url}/api/v1/users`);
      expect(result.outcome).toBe('cut');
      expect(result.ms).toBeLessThan(3000);
    } finally {
      await gateway.close();
      upstream.close();
    }
  });

  it('answers 503 in the envelope when a service does not start answering in time', async () => {
    const upstream = await faultyUpstream(() => {
      // Never answers.
    });
    const gateway = await gatewayTo(upstream.url);
    try {
      const started = performance.now();
      const res = await fetch(`${gateway.url}/api/v1/users`, {
        headers: { authorization: `Bearer ${admin}` },
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: number }).code).toBe(50300);
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await gateway.close();
      upstream.close();
    }
  });

  it('cuts the client connection when a service stalls in the middle of its answer', async () => {
    const upstream = await faultyUpstream((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"code":200,"message":"success","data":"');
      // ...and nothing more.
    });
    const gateway = await gatewayTo(upstream.url);
    try {
      const result = await readAll(`${gateway.url}/api/v1/users`);
      expect(result.outcome).toBe('cut');
      expect(result.ms).toBeLessThan(3000);
    } finally {
      await gateway.close();
      upstream.close();
    }
  });
});

describe('an upstream that dies before it answers (issue 19, items 2 and 8)', () => {
  /** What the gateway logged about the failure: every line at warning level or above. */
  const problems = (logs: string[]) =>
    logs.map((line) => JSON.parse(line) as Record<string, any>).filter((l) => l.level >= 40);

  it.each([
    ['resets the connection', (res: ServerResponse) => res.socket?.resetAndDestroy()],
    ['closes the connection', (res: ServerResponse) => res.socket?.destroy()],
  ])(
    'answers 503 50300 when the service %s mid-request, logged as one warning line',
    async (_how, die) => {
      const upstream = await faultyUpstream(die);
      const logs: string[] = [];
      const gateway = await gatewayTo(upstream.url, logs);
      try {
        const res = await fetch(`${gateway.url}/api/v1/users`, {
          headers: { authorization: `Bearer ${admin}` },
          signal: AbortSignal.timeout(5000),
        });
        expect(res.status).toBe(503);
        expect(((await res.json()) as { code: number }).code).toBe(50300);
      } finally {
        await gateway.close();
        upstream.close();
      }
      const lines = problems(logs);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 40,
        msg: 'dependency unavailable',
        dependency: 'identity',
      });
      expect(lines[0]!.cause).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed|reset/i);
      expect(JSON.stringify(lines[0])).not.toMatch(/stack|\n\s+at /);
    },
  );

  it('answers 503 50300 with one warning line when nothing listens at the service address', async () => {
    const upstream = await faultyUpstream(() => undefined);
    const url = upstream.url;
    upstream.close();
    const { server } = upstream;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const logs: string[] = [];
    const gateway = await gatewayTo(url, logs);
    try {
      const res = await fetch(`${gateway.url}/api/v1/users`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: number }).code).toBe(50300);
    } finally {
      await gateway.close();
    }
    const lines = problems(logs);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, dependency: 'identity' });
    expect(lines[0]!.cause).toMatch(/ECONNREFUSED/);
  });
});
