import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GATEWAY_ROUTES, loadSettings } from '../../src/start.js';
import type { OperationLogTables } from '../../src/platform/audit/operation-log-writer.js';
import { takeHandedOver, type HandedOver } from '../../src/platform/auth/hand-over.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { buildGatewayApp } from '../../src/services/gateway/gateway.app.js';
import type { InProcessService } from '../../src/services/gateway/in-process.js';
import {
  startTestPlatform,
  TEST_JWT_SECRET,
  uniq,
  type ApiResponse,
  type TestPlatform,
} from '../helpers/platform.js';

// All-in-one mode hands each request to the service in process (GATEWAY_IN_PROCESS, on by default:
// the whole suite runs through it; set here all the same) instead of sending it over loopback HTTP. Every gateway rule must hold all the same.

/** A client address of its own (the gateway trusts one proxy hop here), with its own bucket. */
const RATE_BURST = 50;

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({
    GATEWAY_IN_PROCESS: '1',
    GATEWAY_TRUST_PROXY: '1',
    GATEWAY_RATE_AVERAGE: '1',
    GATEWAY_RATE_BURST: String(RATE_BURST),
  });
});
afterAll(() => platform?.close());

/** The operation-log rows of `requestId` once `count` are stored (then a little longer). */
async function logsOf(requestId: string, count = 1) {
  const db = platform.kernel.database.db.withTables<OperationLogTables>();
  const read = () =>
    db
      .selectFrom('audit_operation_logs')
      .where('request_id', '=', requestId)
      .select(['status', 'user_id', 'path', 'module'])
      .execute();
  for (const deadline = Date.now() + 5000; ;) {
    const rows = await read();
    if (rows.length >= count) {
      // A second entry would be in the same or the next batch (flushed every second).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return read();
    }
    if (Date.now() > deadline) throw new Error(`no operation log of ${requestId} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Calls of the services' replay check: one per signed X-Auth-* set a service accepts. */
function nonceChecks(target: TestPlatform) {
  const spy = vi.spyOn(target.kernel.cache, 'setIfAbsent');
  return {
    count: () => spy.mock.calls.filter(([key]) => key.startsWith('gw:nonce:')).length,
    restore: () => spy.mockRestore(),
  };
}

describe('a request handed over in process', () => {
  it('reaches the service as the caller, with no signed set for it to check', async () => {
    const token = await platform.adminToken();
    const checks = nonceChecks(platform);
    try {
      const me = await platform.call('GET', '/api/v1/me', { token });
      expect(me.status).toBe(200);
      expect(me.body.data.username).toBe('admin');
      const page = await platform.call('GET', '/api/v1/users?page=1&page_size=1', { token });
      expect(page.body.data).toMatchObject({ page: 1, page_size: 1 });
      expect(checks.count()).toBe(0);
    } finally {
      checks.restore();
    }
  });

  it('carries the body to the service whole', async () => {
    const token = await platform.adminToken();
    const code = uniq('role');
    const created = await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code, name: 'Handed over ✓', permissions: ['system:user:list'] },
    });
    expect(created.status).toBe(200);
    const read = await platform.call('GET', `/api/v1/roles/${created.body.data.id}`, { token });
    expect(read.body.data).toMatchObject({ code, name: 'Handed over ✓' });
  });

  it('strips client-sent X-Auth-* headers: they grant nothing, with a token or without', async () => {
    const admin = await platform.adminToken();
    const username = uniq('plain');
    await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username, password: 'Plain-Passw0rd!' },
    });
    const { access_token: plain } = await platform.login(username, 'Plain-Passw0rd!');
    const spoofed = {
      'x-auth-user-id': '1',
      'X-Auth-Permissions': '*',
      'x-auth-platform-admin': 'true',
      'x-auth-signature': 'f'.repeat(64),
    };
    const me = await platform.call('GET', '/api/v1/me', { token: plain, headers: spoofed });
    expect(me.body.data).toMatchObject({ username, permissions: [] });
    const users = await platform.call('GET', '/api/v1/users', { token: plain, headers: spoofed });
    expect(users.status).toBe(403);
    const anonymous = await platform.call('GET', '/api/v1/users', { headers: spoofed });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(40100);
  });

  it('refuses a request without a valid token before any service sees it', async () => {
    for (const token of [undefined, 'x.y.z']) {
      const res = await platform.call('GET', '/api/v1/users', { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(40100);
    }
  });

  it('keeps the client request id end to end, and the service records the request once', async () => {
    const token = await platform.adminToken();
    const requestId = `in-process.${randomUUID()}`;
    const me = await platform.call('GET', '/api/v1/me', {
      token,
      headers: { 'x-request-id': requestId },
    });
    expect(me.headers.get('x-request-id')).toBe(requestId);
    // Security headers of the gateway on the service's answer.
    expect(me.headers.get('x-content-type-options')).toBe('nosniff');
    expect(me.headers.get('referrer-policy')).toBe('no-referrer');
    const rows = await logsOf(requestId);
    expect(rows).toEqual([
      { status: 200, user_id: me.body.data.id, path: '/api/v1/me', module: 'me' },
    ]);
  });

  it('records a refusal of the gateway once: 401, 413', async () => {
    const [unauthenticated, tooLarge] = [randomUUID(), randomUUID()];
    const refused = await platform.call('GET', '/api/v1/users', {
      headers: { 'x-request-id': unauthenticated },
    });
    expect(refused.status).toBe(401);
    const big = JSON.stringify({ name: 'a'.repeat(1024 * 1024 + 10) });
    const res = await platform.call('POST', '/api/v1/roles', {
      token: await platform.adminToken(),
      rawBody: big,
      headers: { 'x-request-id': tooLarge },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(41300);
    expect((await logsOf(unauthenticated)).map((r) => r.status)).toEqual([401]);
    expect((await logsOf(tooLarge)).map((r) => r.status)).toEqual([413]);
  });

  it('is rate limited per client: 429 42900 with Retry-After, recorded once', async () => {
    const client = { 'x-forwarded-for': '198.51.100.23' };
    let limited: ApiResponse | undefined;
    let requestId = '';
    // The burst, then at most a token or two refilled while the loop runs (1 per second).
    for (let i = 0; i < RATE_BURST + 5 && !limited; i++) {
      requestId = randomUUID();
      // An invalid token: forward-auth's refusal, started beside the rate limiter, is dropped.
      const res = await platform.call('GET', '/api/v1/me', {
        token: 'x.y.z',
        headers: { ...client, 'x-request-id': requestId },
      });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(401);
    }
    expect(limited?.body.code).toBe(42900);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await logsOf(requestId)).map((r) => r.status)).toEqual([429]);
    // Another client is not affected.
    const other = await platform.call('GET', '/api/v1/me', { token: await platform.adminToken() });
    expect(other.status).toBe(200);
  });
});

describe('the hand-over itself', () => {
  /** A service in the gateway's process that keeps what it receives and answers 200. */
  function recordingService() {
    const seen: Array<{
      url: string | undefined;
      headers: IncomingHttpHeaders;
      handed: HandedOver | undefined;
    }> = [];
    const service: InProcessService = {
      routing(req: IncomingMessage, res: ServerResponse) {
        seen.push({ url: req.url, headers: { ...req.headers }, handed: takeHandedOver(req) });
        res.setHeader('content-type', 'application/json');
        res.end('{"code":200,"message":"success","data":null}');
      },
    };
    return { seen, service };
  }

  async function gatewayWith(identity: InProcessService, env: Record<string, string> = {}) {
    const settings = loadSettings({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', ...env });
    const gateway = await buildGatewayApp({
      routes: GATEWAY_ROUTES,
      settings,
      logger: createLogger('silent'),
      cache: platform.kernel.cache,
      upstreams: platform.serviceUrls,
      operationLog: platform.kernel.operationLog,
      inProcess: { identity },
    });
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.app.server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, close: gateway.close };
  }

  it('gives the service the request as the hop would, and the context under the marker only', async () => {
    const { seen, service } = recordingService();
    const gateway = await gatewayWith(service);
    try {
      const token = await platform.adminToken();
      const body = JSON.stringify({ name: 'ü', note: 'x'.repeat(1000) });
      const res = await fetch(`${gateway.url}/api/v1/roles?page=2&q=a%20b`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-request-id': 'handed-1',
          'x-auth-user-id': '99',
          'proxy-authorization': 'Basic c2VjcmV0OnNlY3JldA==',
          'x-kept': 'end to end',
        },
        body,
      });
      expect(res.status).toBe(200);
      const [got] = seen;
      expect(got?.url).toBe('/api/v1/roles?page=2&q=a%20b');
      expect(Object.keys(got!.headers).filter((h) => h.startsWith('x-auth-'))).toEqual([]);
      expect(got?.headers).toMatchObject({
        'x-request-id': 'handed-1',
        'x-kept': 'end to end',
        'content-length': String(Buffer.byteLength(body)),
      });
      expect(got?.headers['proxy-authorization']).toBeUndefined();
      expect(got?.handed?.principal).toMatchObject({ username: 'admin', permissions: ['*'] });
      expect(got?.handed?.clientIp).toBe('127.0.0.1');
      expect(got?.handed?.body.toString()).toBe(body);
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 50300 itself, recorded once, when the service does not start answering in time', async () => {
    const gateway = await gatewayWith(
      { routing: () => undefined },
      {
        GATEWAY_UPSTREAM_TIMEOUT: '300ms',
      },
    );
    try {
      const requestId = randomUUID();
      const res = await fetch(`${gateway.url}/api/v1/users`, {
        headers: {
          authorization: `Bearer ${await platform.adminToken()}`,
          'x-request-id': requestId,
        },
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: number }).code).toBe(50300);
      expect((await logsOf(requestId)).map((r) => r.status)).toEqual([503]);
    } finally {
      await gateway.close();
    }
  });
});

describe('GATEWAY_IN_PROCESS=0', () => {
  let overHttp: TestPlatform;
  beforeAll(async () => {
    overHttp = await startTestPlatform({ GATEWAY_IN_PROCESS: '0' });
  });
  afterAll(() => overHttp?.close());

  it('sends every request over the HTTP hop: each service checks a signed set', async () => {
    const token = await overHttp.adminToken();
    const checks = nonceChecks(overHttp);
    try {
      const me = await overHttp.call('GET', '/api/v1/me', { token });
      expect(me.body.data.username).toBe('admin');
      const users = await overHttp.call('GET', '/api/v1/users', { token });
      expect(users.status).toBe(200);
      expect(checks.count()).toBe(2);
    } finally {
      checks.restore();
    }
  });
});
