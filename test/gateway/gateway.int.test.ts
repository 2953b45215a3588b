import { randomUUID } from 'node:crypto';
import { GATEWAY_ROUTES, SERVICE_NAMES } from '../../src/start.js';
import { request as rawRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/start.js';
import type { OperationLogRecorder } from '../../src/platform/audit/operation-log.js';
import type { OperationLogTables } from '../../src/platform/audit/operation-log-writer.js';
import { bodyDigest, signedGatewayHeaders } from '../../src/platform/auth/principal.js';
import { openCache, type Cache } from '../../src/platform/cache/cache.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { buildGatewayApp } from '../../src/services/gateway/gateway.app.js';
import {
  startTestPlatform,
  TEST_JWT_SECRET,
  uniq,
  type TestPlatform,
} from '../helpers/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

/** A second gateway in front of the same services, with its own settings. */
async function extraGateway(
  env: Record<string, string>,
  upstreams = platform.serviceUrls,
  { operationLog, cache }: { operationLog?: OperationLogRecorder; cache?: Cache } = {},
) {
  const settings = loadSettings({
    JWT_SECRET: TEST_JWT_SECRET,
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const gateway = await buildGatewayApp({
    routes: GATEWAY_ROUTES,
    settings,
    logger: createLogger('silent'),
    cache: cache ?? platform.kernel.cache,
    upstreams,
    operationLog,
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, close: gateway.close };
}

describe('identity headers', () => {
  it('drops spoofed X-Auth-* headers from a client without a token', async () => {
    const res = await platform.call('GET', '/api/v1/me', {
      headers: { 'X-Auth-User-Id': '1', 'x-auth-tenant-id': '1', 'X-AUTH-PERMISSIONS': '*' },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40100);
  });

  it('grants nothing for spoofed headers sent beside a real token', async () => {
    const admin = await platform.adminToken();
    const username = uniq('plain');
    await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username, password: 'Plain-Passw0rd!' },
    });
    const { access_token } = await platform.login(username, 'Plain-Passw0rd!');
    const me = await platform.call('GET', '/api/v1/me', {
      token: access_token,
      headers: {
        'x-auth-user-id': '1',
        'x-auth-permissions': '*',
        'x-auth-platform-admin': 'true',
      },
    });
    expect(me.body.data.username).toBe(username);
    expect(me.body.data.permissions).toEqual([]);
    const users = await platform.call('GET', '/api/v1/users', {
      token: access_token,
      headers: { 'x-auth-permissions': '*' },
    });
    expect(users.status).toBe(403);
  });

  it('makes a service refuse forged identity headers sent to it directly', async () => {
    const forged = signedGatewayHeaders(
      {
        clientIp: '127.0.0.1',
        principal: {
          userId: 1,
          tenantId: 1,
          username: 'admin',
          roles: [],
          deptId: null,
          platformAdmin: true,
          permissions: ['*'],
          sessionId: 1,
        },
      },
      {
        requestId: 'req-1',
        method: 'GET',
        path: '/api/v1/me',
        bodySha256: bodyDigest(Buffer.alloc(0)),
      },
      'a-guessed-signing-secret',
    );
    for (const base of Object.values(platform.serviceUrls)) {
      const res = await fetch(`${base}/api/v1/me`, {
        headers: { ...forged, 'x-request-id': 'req-1' },
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).code).toBe(40100);
      const unsigned = await fetch(`${base}/api/v1/users`, { headers: { 'x-auth-user-id': '1' } });
      expect(unsigned.status).toBe(401);
    }
  });

  it('makes every service accept a genuine set once and refuse it replayed', async () => {
    const services = Object.entries(platform.serviceUrls);
    expect(services.map(([name]) => name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const [name, base] of services) {
      const requestId = randomUUID();
      // Served by every service, without a bearer token at BPM too.
      const path = '/health/ready?probe=1';
      const headers = {
        'x-request-id': requestId,
        ...signedGatewayHeaders(
          { clientIp: '127.0.0.1', principal: null },
          { requestId, method: 'GET', path, bodySha256: bodyDigest(Buffer.alloc(0)) },
          platform.settings.gateway.signingSecret,
        ),
      };
      const first = await fetch(`${base}${path}`, { headers });
      expect({ name, status: first.status }).toEqual({ name, status: 200 });
      const replayed = await fetch(`${base}${path}`, { headers });
      expect({ name, status: replayed.status }).toEqual({ name, status: 401 });
      expect(((await replayed.json()) as any).code).toBe(40100);
    }
  });
});

describe('forward-auth over HTTP (one service per process)', () => {
  it('passes the auth service verdicts through', async () => {
    // No forwardAuth option: this gateway asks the auth service over HTTP, as in production.
    const gateway = await extraGateway({});
    try {
      const ok = await fetch(`${gateway.url}/api/v1/me`, {
        headers: { authorization: `Bearer ${await platform.adminToken()}` },
      });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as any).data.username).toBe('admin');
      const missing = await fetch(`${gateway.url}/api/v1/users`);
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as any).code).toBe(40100);
      const garbage = await fetch(`${gateway.url}/api/v1/users`, {
        headers: { authorization: 'Bearer x.y.z' },
      });
      expect(((await garbage.json()) as any).code).toBe(40100);
    } finally {
      await gateway.close();
    }
  });

  it('fails closed with 503 when the auth service cannot be reached', async () => {
    const gateway = await extraGateway({}, { ...platform.serviceUrls, auth: 'http://127.0.0.1:1' });
    try {
      const res = await fetch(`${gateway.url}/api/v1/users`, {
        headers: { authorization: `Bearer ${await platform.adminToken()}` },
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as any).code).toBe(50300);
    } finally {
      await gateway.close();
    }
  });
});

describe('HTTP conventions', () => {
  it('keeps a well-formed client request id and replaces a bad one', async () => {
    const kept = await platform.call('GET', '/api/v1/health/ready', {
      headers: { 'x-request-id': 'abc.DEF_1:2-3' },
    });
    expect(kept.headers.get('x-request-id')).toBe('abc.DEF_1:2-3');
    const replaced = await platform.call('GET', '/api/v1/health/ready', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const fresh = await platform.call('GET', '/api/v1/nothing-here');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown routes with the 404 envelope', async () => {
    const res = await platform.call('GET', '/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 40400, data: null });
  });

  it('answers malformed JSON with 40000 and changes nothing', async () => {
    const res = await platform.call('POST', '/api/v1/login', { rawBody: '{"username": "admin", ' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
  });

  it('refuses prototype-poisoning keys', async () => {
    const res = await platform.call('POST', '/api/v1/login', {
      rawBody: '{"username":"admin","password":"x","__proto__":{"isAdmin":true}}',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
  });

  it('answers wrong types with 40001 listing every field', async () => {
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: ['a'], password: 12 },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'username', rule: 'type' }),
        expect.objectContaining({ field: 'password', rule: 'type' }),
      ]),
    );
  });

  it('answers a body over 1 MiB with 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ username: 'a'.repeat(1024 * 1024 + 10), password: 'x' });
    const sized = await platform.call('POST', '/api/v1/login', { rawBody: big });
    expect(sized.status).toBe(413);
    expect(sized.body.code).toBe(41300);
    const url = new URL(`${platform.url}/api/v1/login`);
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = rawRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('a'.repeat(64 * 1024));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).code).toBe(41300);
  });

  it('survives deeply nested JSON without a 500', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await platform.call('POST', '/api/v1/login', { rawBody: deep });
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/at .*\.js:\d+/);
  });

  it('treats injection strings as plain data', async () => {
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: "admin' OR 1=1 --", password: "' OR ''='" },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40103);
  });
});

describe('metrics and health', () => {
  it('does not route /metrics, which every service serves internally', async () => {
    expect((await platform.call('GET', '/metrics')).status).toBe(404);
    for (const base of Object.values(platform.serviceUrls)) {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/http_request_duration_seconds/);
    }
    const gatewayMetrics = await fetch(`${platform.metricsUrl}/metrics`);
    expect(await gatewayMetrics.text()).toMatch(/service="gateway"/);
  });

  it('reports every service ready', async () => {
    const res = await platform.call('GET', '/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('ready');
    expect(Object.keys(res.body.data.services).sort()).toEqual([...SERVICE_NAMES].sort());
    expect(res.body.data.services.auth).toMatchObject({ status: 'ready' });
  });

  it('answers 503 when a service is down', async () => {
    const gateway = await extraGateway(
      {},
      { ...platform.serviceUrls, identity: 'http://127.0.0.1:1' },
    );
    try {
      const res = await fetch(`${gateway.url}/api/v1/health/ready`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as any;
      expect(body.data.status).toBe('degraded');
      expect(body.data.services.identity.status).toBe('down');
    } finally {
      await gateway.close();
    }
  });
});

describe('operation logs of the gateway', () => {
  /** Rows of `requestIds` once all are stored (polled in SQL; fails after 5 s). */
  async function storedLogs(requestIds: string[]) {
    const db = platform.kernel.database.db.withTables<OperationLogTables>();
    for (const deadline = Date.now() + 5000; ;) {
      const rows = await db
        .selectFrom('audit_operation_logs')
        .where('request_id', 'in', requestIds)
        .select(['request_id', 'status', 'tenant_id'])
        .execute();
      if (rows.length >= requestIds.length) return rows;
      if (Date.now() > deadline) throw new Error('operation logs not stored within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('records the 429s and 503s it answers itself, which no service sees', async () => {
    // Its own in-memory cache: the per-IP buckets of the other tests stay untouched.
    const cache = openCache(loadSettings({}).redis, createLogger('silent'));
    const operationLog = platform.kernel.operationLog;
    const limited = await extraGateway(
      { GATEWAY_RATE_AVERAGE: '1', GATEWAY_RATE_BURST: '1' },
      platform.serviceUrls,
      { operationLog, cache },
    );
    const down = await extraGateway(
      {},
      { ...platform.serviceUrls, identity: 'http://127.0.0.1:9' },
      { operationLog },
    );
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    try {
      const get = (base: string, id: string) =>
        fetch(`${base}/api/v1/users`, { headers: { 'x-request-id': id } });
      await (await get(limited.url, ids[0]!)).arrayBuffer();
      expect((await get(limited.url, ids[1]!)).status).toBe(429);
      const token = await platform.adminToken();
      const res = await fetch(`${down.url}/api/v1/users`, {
        headers: { 'x-request-id': ids[2]!, authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: number }).code).toBe(50300);
      const rows = await storedLogs(ids);
      const status = Object.fromEntries(rows.map((r) => [r.request_id, r.status]));
      expect(status).toEqual({ [ids[0]!]: 401, [ids[1]!]: 429, [ids[2]!]: res.status });
    } finally {
      await limited.close();
      await down.close();
      await cache.close();
    }
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once the burst is spent', async () => {
    const gateway = await extraGateway({ GATEWAY_RATE_AVERAGE: '1', GATEWAY_RATE_BURST: '3' });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${gateway.url}/api/v1/health/ready`);
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get('retry-after');
          expect(((await res.json()) as any).code).toBe(42900);
        } else await res.arrayBuffer();
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await gateway.close();
    }
  });

  it('shares one budget between gateway replicas using the same cache', async () => {
    const env = { GATEWAY_RATE_AVERAGE: '1', GATEWAY_RATE_BURST: '4' };
    const [a, b] = [await extraGateway(env), await extraGateway(env)];
    try {
      const statuses: number[] = [];
      for (const url of [a.url, b.url, a.url, b.url, a.url, b.url]) {
        const res = await fetch(`${url}/api/v1/health/ready`);
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
