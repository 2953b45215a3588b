import { randomUUID } from 'node:crypto';
import { GATEWAY_ROUTES, permissionCatalogue } from '../../src/start.js';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/start.js';
import type { OperationLogTables } from '../../src/platform/audit/operation-log-writer.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { buildGatewayApp } from '../../src/services/gateway/gateway.app.js';
import { buildIdentityApp } from '../../src/services/identity/identity.app.js';
import { startTestPlatform, TEST_JWT_SECRET, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

/** A second gateway in front of `upstreams`, with its own settings. */
async function extraGateway(env: Record<string, string>, upstreams = platform.serviceUrls) {
  const settings = loadSettings({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', ...env });
  const gateway = await buildGatewayApp({
    routes: GATEWAY_ROUTES,
    settings,
    logger: createLogger('silent'),
    cache: platform.kernel.cache,
    upstreams,
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = gateway.app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: gateway.close };
}

/** An upstream that records the headers the gateway sends it: a wiretap between the two. */
async function wiretap(): Promise<{
  url: string;
  seen: IncomingHttpHeaders[];
  /** Each request's header lines as received (name, value, name, value…), every copy. */
  raw: string[][];
  server: Server;
}> {
  const seen: IncomingHttpHeaders[] = [];
  const raw: string[][] = [];
  const server = createServer((req, res) => {
    seen.push({ ...req.headers });
    raw.push([...req.rawHeaders]);
    res.setHeader('content-type', 'application/json');
    res.end('{"code":200,"message":"success","data":null}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, raw, server };
}

/**
 * One request whose header lines go out as listed (`http.request` with a flat name/value
 * array), so a name can repeat and keep its case; fetch would fold the copies into one.
 */
async function rawHttp(
  base: string,
  method: string,
  path: string,
  headers: [string, string][],
  body = '',
): Promise<{ status: number; body: any }> {
  const { host, hostname, port } = new URL(base);
  const lines = [
    ['Host', host],
    ...(body ? [['Content-Type', 'application/json']] : []),
    ...headers,
  ].flat();
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers: lines }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The signed set and request id the gateway sent for one request, captured by a wiretap. */
async function captureSignedSet(path: string, init: RequestInit = {}) {
  const tap = await wiretap();
  const gateway = await extraGateway({}, { ...platform.serviceUrls, identity: tap.url });
  try {
    const res = await fetch(`${gateway.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${admin}`, ...init.headers },
    });
    expect(res.status).toBe(200);
  } finally {
    await gateway.close();
    tap.server.close();
  }
  return Object.fromEntries(
    Object.entries(tap.seen[0]!).filter(
      ([name]) => name.startsWith('x-auth-') || name === 'x-request-id',
    ),
  ) as Record<string, string>;
}

describe('a captured X-Auth-* header set', () => {
  const identity = () => platform.serviceUrls.identity!;
  const codeOf = async (res: Response) => ((await res.json()) as { code: number }).code;

  it('works only for the route, method and query string it was signed for, and once', async () => {
    const captured = await captureSignedSet('/api/v1/users?page=1');
    expect(captured['x-auth-nonce']).toMatch(/^[0-9a-f-]{36}$/);
    const replay = (method: string, path: string) =>
      fetch(`${identity()}${path}`, { method, headers: captured });
    for (const [method, path] of [
      ['GET', '/api/v1/users?page=2'],
      ['GET', '/api/v1/users?page=1&page_size=100'],
      ['GET', '/api/v1/users'],
      ['GET', '/api/v1/roles?page=1'],
      ['GET', '/api/v1/users/1?page=1'],
      ['DELETE', '/api/v1/users?page=1'],
    ] as const) {
      const res = await replay(method, path);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      expect(await codeOf(res)).toBe(40100);
    }
    // The set is genuine: sent to the very request it was signed for, it is accepted once
    // (the wiretap stood in for the service, so the service has not seen its nonce yet)...
    expect((await replay('GET', '/api/v1/users?page=1')).status).toBe(200);
    // ...and refused when replayed, to this replica or to another one sharing the cache.
    const again = await replay('GET', '/api/v1/users?page=1');
    expect(again.status).toBe(401);
    expect(await codeOf(again)).toBe(40100);
    const { app: replica } = await buildIdentityApp(platform.kernel, {
      openTasksOf: async () => 0,
      permissions: permissionCatalogue(),
    });
    try {
      await replica.listen({ host: '127.0.0.1', port: 0 });
      const { port } = replica.server.address() as { port: number };
      const elsewhere = await fetch(`http://127.0.0.1:${port}/api/v1/users?page=1`, {
        headers: captured,
      });
      expect(elsewhere.status).toBe(401);
    } finally {
      await replica.close();
    }
  });

  it('works only for the body it was signed for', async () => {
    const body = JSON.stringify({ name: `dept-${randomUUID()}` });
    const captured = await captureSignedSet('/api/v1/departments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const replay = (sent: string) =>
      fetch(`${identity()}/api/v1/departments`, {
        method: 'POST',
        headers: { ...captured, 'content-type': 'application/json' },
        body: sent,
      });
    for (const other of [JSON.stringify({ name: 'Replaced' }), `${body} `, '{}']) {
      const res = await replay(other);
      expect({ other, status: res.status }).toEqual({ other, status: 401 });
      expect(await codeOf(res)).toBe(40100);
    }
    const first = await replay(body);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { data: { name: string } }).data.name).toBe(
      JSON.parse(body).name,
    );
    expect((await replay(body)).status).toBe(401);
  });
});

describe('client-sent X-Auth-* headers on a public route', () => {
  const SPOOFED = {
    'X-Auth-User-Id': '1',
    'x-auth-tenant-id': '1',
    'X-AUTH-PERMISSIONS': '*',
    'x-auth-platform-admin': 'true',
    'x-auth-anything': 'else',
  };

  it('never reach the service: it sees only the set the gateway signed', async () => {
    const tap = await wiretap();
    const gateway = await extraGateway({}, { ...platform.serviceUrls, auth: tap.url });
    try {
      const res = await fetch(`${gateway.url}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...SPOOFED },
        body: JSON.stringify({ username: 'admin', password: 'admin123' }),
      });
      expect(res.status).toBe(200);
    } finally {
      await gateway.close();
      tap.server.close();
    }
    const names = Object.keys(tap.seen[0]!).filter((name) => name.startsWith('x-auth-'));
    expect(names.sort()).toEqual([
      'x-auth-client-ip',
      'x-auth-nonce',
      'x-auth-signature',
      'x-auth-timestamp',
    ]);
  });

  it('are stripped every copy: a name sent twice, and in two cases, never reaches the service', async () => {
    const tap = await wiretap();
    const gateway = await extraGateway({}, { ...platform.serviceUrls, auth: tap.url });
    try {
      const res = await rawHttp(
        gateway.url,
        'POST',
        '/api/v1/login',
        [
          ['X-Auth-User-Id', '1'],
          ['X-Auth-User-Id', '2'],
          ['x-auth-user-id', '3'],
          ['X-AUTH-PERMISSIONS', '*'],
          ['x-auth-permissions', '*'],
          ['X-Auth-Platform-Admin', 'true'],
          ['x-auth-platform-admin', 'true'],
          // A second signature and client address beside the ones the gateway will add.
          ['X-Auth-Signature', 'forged'],
          ['x-auth-client-ip', '198.51.100.7'],
          ['X-Auth-Client-Ip', '198.51.100.8'],
        ],
        JSON.stringify({ username: 'admin', password: 'admin123' }),
      );
      expect(res.status).toBe(200);
    } finally {
      await gateway.close();
      tap.server.close();
    }
    // Every X-Auth-* line the service received, as received: one copy of each signed header,
    // none of the client's.
    const lines = tap.raw[0]!;
    const received: [string, string][] = [];
    for (let i = 0; i < lines.length; i += 2) {
      if (lines[i]!.toLowerCase().startsWith('x-auth-')) received.push([lines[i]!, lines[i + 1]!]);
    }
    expect(received.map(([name]) => name.toLowerCase()).sort()).toEqual([
      'x-auth-client-ip',
      'x-auth-nonce',
      'x-auth-signature',
      'x-auth-timestamp',
    ]);
    expect(Object.fromEntries(received)['x-auth-client-ip']).toBe('127.0.0.1');
    expect(Object.fromEntries(received)['x-auth-signature']).not.toBe('forged');
  });

  it('grant nothing sent twice: without a token 401, with a plain user’s token only that user', async () => {
    const repeated: [string, string][] = [
      ['X-Auth-User-Id', '1'],
      ['x-auth-user-id', '1'],
      ['X-Auth-Tenant-Id', '1'],
      ['x-auth-tenant-id', '1'],
      ['X-Auth-Permissions', '*'],
      ['x-auth-permissions', '*'],
      ['X-Auth-Platform-Admin', 'true'],
      ['x-auth-platform-admin', 'true'],
    ];
    const anonymous = await rawHttp(platform.url, 'GET', '/api/v1/me', repeated);
    expect(anonymous).toEqual({
      status: 401,
      body: { code: 40100, message: expect.any(String), data: null },
    });
    const username = `plain_${randomUUID().slice(0, 8)}`;
    const created = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username, password: 'Plain-Passw0rd!' },
    });
    expect(created.status).toBe(200);
    const { access_token } = await platform.login(username, 'Plain-Passw0rd!');
    const bearer: [string, string] = ['Authorization', `Bearer ${access_token}`];
    const me = await rawHttp(platform.url, 'GET', '/api/v1/me', [bearer, ...repeated]);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username, permissions: [], is_platform_admin: false });
    const users = await rawHttp(platform.url, 'GET', '/api/v1/users', [bearer, ...repeated]);
    expect(users.status).toBe(403);
  });

  it('do not spoil the request: sign-in with them still works', async () => {
    const res = await platform.call('POST', '/api/v1/login', {
      headers: SPOOFED,
      body: { username: 'admin', password: 'admin123' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user.username).toBe('admin');
  });
});

describe('the OAuth2 client routes behind forward-auth', () => {
  it.each([
    '/api/v1/oauth2/clients',
    '/api/v1/oauth2/CLIENTS',
    '/api/v1/oauth2/Clients/1',
    '/api/v1/oauth2//clients',
    '/api/v1/oauth2/./clients',
    '/api/v1/oauth2/x/%2e%2e/clients',
    '/api/v1/oauth2/x/%2E%2E/clients/',
    '/api/v1/oauth2/%63lients',
    '/api/v1/oauth2/clients%2f1',
    '/api/v1/oauth2/clients?x=/authorize',
    '/oauth2/clients',
    '/oauth2//clients/1',
  ])('%s without a token is 401 at the gateway', async (path) => {
    const res = await platform.call('GET', path);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40100);
  });
});

/** The IP the service recorded for a request, from its operation log. */
async function recordedIp(requestId: string): Promise<string> {
  const db = platform.kernel.database.db.withTables<OperationLogTables>();
  const deadline = Date.now() + 5000;
  for (;;) {
    const row = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', '=', requestId)
      .select('ip')
      .executeTakeFirst();
    if (row) return row.ip ?? '';
    if (Date.now() > deadline) throw new Error(`no operation log for ${requestId} within 5 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A failed login sent to `base` with a forged X-Forwarded-For; the IP the service recorded. */
async function loginFrom(base: string): Promise<string> {
  const requestId = `xff-${randomUUID()}`;
  const res = await fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-request-id': requestId,
      'x-forwarded-for': '198.51.100.7',
    },
    body: JSON.stringify({ username: 'nobody-here', password: 'wrong-password-1' }),
  });
  expect(res.status).toBe(401);
  return recordedIp(requestId);
}

describe('client addresses', () => {
  it('a service reached directly ignores X-Forwarded-For and records the socket', async () => {
    expect(await loginFrom(platform.serviceUrls.auth!)).toBe('127.0.0.1');
  });

  it('the default gateway ignores X-Forwarded-For (no proxy trusted)', async () => {
    expect(await loginFrom(platform.url)).toBe('127.0.0.1');
  });

  it.each([
    ['a hop count', '1', '198.51.100.7'],
    ['a CIDR holding the proxy', '127.0.0.0/8', '198.51.100.7'],
    ['an address list holding the proxy', '10.9.9.9, 127.0.0.1', '198.51.100.7'],
    ['a CIDR not holding the proxy', '10.0.0.0/8', '127.0.0.1'],
  ])(
    'GATEWAY_TRUST_PROXY as %s: the service records what the gateway vouched for',
    async (_l, trust, ip) => {
      const gateway = await extraGateway({ GATEWAY_TRUST_PROXY: trust });
      try {
        expect(await loginFrom(gateway.url)).toBe(ip);
      } finally {
        await gateway.close();
      }
    },
  );
});
