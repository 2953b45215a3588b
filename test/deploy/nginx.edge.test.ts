/**
 * deploy/nginx/approva.conf on a real nginx (Debian's, in CI): the edge in front of an embedded
 * platform. The gateway upstream is a tap that records the headers nginx sends and forwards to
 * the gateway; the example internal app echoes the headers it receives.
 *
 * Runs when nginx is installed; `REQUIRE_NGINX=1` (`.ci/run`'s real-servers pass, which installs
 * it) makes a missing nginx fail the run, `REQUIRE_NGINX=0` (the other passes) skips it, so it
 * runs once in CI.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

const CONF = join(import.meta.dirname, '../../deploy/nginx/approva.conf');

/** Every X-Auth-* header of src/platform/auth/principal.ts, as a client might forge them. */
const FORGED: Record<string, string> = {
  'x-auth-user-id': '1',
  'x-auth-tenant-id': '1',
  'x-auth-username': 'admin',
  'x-auth-roles': 'super_admin',
  'x-auth-dept-id': '1',
  'x-auth-platform-admin': 'true',
  'x-auth-permissions': '*',
  'x-auth-session-id': '1',
  'x-auth-client-ip': '10.9.9.9',
  'x-auth-nonce': 'forged-nonce',
  'x-auth-timestamp': String(Date.now()),
  'x-auth-signature': 'forged-signature',
};
const INJECTED = [
  'x-auth-user-id',
  'x-auth-tenant-id',
  'x-auth-username',
  'x-auth-roles',
  'x-auth-platform-admin',
];

/** The edge rate limit the test renders: low enough to reach with one burst. */
const TEST_RATE = '1r/s';
const TEST_BURST = 30;

function findNginx(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  return ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((path) => existsSync(path));
}

const nginxBinary = findNginx();
const requireNginx = process.env.REQUIRE_NGINX === '1';
if (requireNginx && !nginxBinary) {
  throw new Error('REQUIRE_NGINX=1 but nginx is not installed: the edge test would be skipped');
}
const runEdge = Boolean(nginxBinary) && process.env.REQUIRE_NGINX !== '0';
/** Said in the suite's title when it is skipped (vitest lists skipped suites by title). */
const skipped = runEdge
  ? ''
  : nginxBinary
    ? ' (skipped: REQUIRE_NGINX=0; .ci/run runs it in the real-servers pass)'
    : ' (skipped: nginx is not installed; apt-get install nginx to run it)';

/** Replaces each `from` exactly once: a template line the test relies on must not drift. */
function render(template: string, replacements: [string, string][]): string {
  let out = template;
  for (const [from, to] of replacements) {
    const count = out.split(from).length - 1;
    if (count !== 1) throw new Error(`approva.conf: expected "${from}" once, found ${count}`);
    out = out.replace(from, to);
  }
  return out;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A GET from a chosen loopback source address (the edge limits per client address). */
function getFrom(
  localAddress: string,
  url: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    })
      .on('error', reject)
      .end();
  });
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe.skipIf(!runEdge)(`Approva behind nginx (deploy/nginx/approva.conf)${skipped}`, () => {
  let platform: TestPlatform;
  let dir: string;
  let nginx: ChildProcess | undefined;
  let edge: string;
  let tap: Server;
  let app: Server;
  /** The request headers nginx sent to the gateway, by the X-Request-Id the test chose. */
  const atGateway = new Map<string, IncomingHttpHeaders>();
  let gatewayRequests = 0;
  let appRequests = 0;
  let nginxOutput = '';

  let user: { id: number; username: string; token: string; roles: string[] };

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${edge}${path}`, { headers });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'approva-nginx-'));
    // As root nginx's workers run as nobody: they must reach the temp paths inside.
    await chmod(dir, 0o755);
    const consoleDir = join(dir, 'console');
    await mkdir(join(consoleDir, 'assets'), { recursive: true });
    await writeFile(
      join(consoleDir, 'index.html'),
      '<!doctype html><html><head><title>Approva</title></head><body><div id="root"></div></body></html>',
    );
    await writeFile(join(consoleDir, 'assets', 'app-abc123.js'), 'console.log("approva")');
    platform = await startTestPlatform({ CONSOLE_DIR: consoleDir });

    tap = createServer((req, res) => {
      gatewayRequests++;
      const id = req.headers['x-request-id'];
      if (typeof id === 'string') atGateway.set(id, req.headers);
      const upstream = httpRequest(
        `${platform.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    app = createServer((req, res) => {
      appRequests++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ url: req.url, headers: req.headers }));
    });
    const [tapPort, appPort, edgePort] = [await listen(tap), await listen(app), await freePort()];
    const authPort = new URL(platform.serviceUrls.auth!).port;

    const conf = render(await readFile(CONF, 'utf8'), [
      ['server 127.0.0.1:8080;', `server 127.0.0.1:${tapPort};`],
      ['server 127.0.0.1:8101;', `server 127.0.0.1:${authPort};`],
      ['server 127.0.0.1:9000;', `server 127.0.0.1:${appPort};`],
      ['listen 80;', `listen 127.0.0.1:${edgePort};`],
      ['rate=20r/s;', `rate=${TEST_RATE};`],
      ['burst=40 ', `burst=${TEST_BURST} `],
    ]);
    await writeFile(join(dir, 'approva.conf'), conf);
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((name) => `  ${name}_temp_path ${join(dir, `${name}_temp`)};`)
      .join('\n');
    await writeFile(
      join(dir, 'nginx.conf'),
      [
        'worker_processes 1;',
        `error_log ${join(dir, 'error.log')} info;`,
        'events { worker_connections 512; }',
        'http {',
        `  access_log ${join(dir, 'access.log')};`,
        temp,
        `  include ${join(dir, 'approva.conf')};`,
        '}',
        '',
      ].join('\n'),
    );

    nginx = spawn(
      nginxBinary!,
      [
        '-p',
        `${dir}/`,
        '-c',
        join(dir, 'nginx.conf'),
        '-e',
        join(dir, 'error.log'),
        '-g',
        `daemon off; pid ${join(dir, 'nginx.pid')};`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    nginx.stdout!.on('data', (chunk) => (nginxOutput += String(chunk)));
    nginx.stderr!.on('data', (chunk) => (nginxOutput += String(chunk)));
    edge = `http://127.0.0.1:${edgePort}`;
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (nginx.exitCode !== null) {
        const log = await readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
        throw new Error(`nginx exited ${nginx.exitCode}: ${nginxOutput}\n${log}`);
      }
      const up = await fetch(`${edge}/_edge_probe`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${nginxOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const username = uniq('edge');
    const password = 'Str0ng-Passw0rd!';
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password, nickname: 'Edge user' },
    });
    expect(created.status).toBe(200);
    const session = await platform.login(username, password);
    user = {
      id: session.user.id,
      username,
      token: session.access_token,
      roles: (session.user.roles as string[] | undefined) ?? [],
    };
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (nginx.exitCode === null) nginx.kill('SIGKILL');
    }
    if (tap) await close(tap);
    if (app) await close(app);
    await platform?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the console through nginx: /, a client-side route and a built asset', async () => {
    for (const path of ['/', '/login']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<div id="root">');
    }
    const asset = await get('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log("approva")');
  });

  it('passes the API through with X-Forwarded-*, X-Request-Id and no client-sent X-Auth-*', async () => {
    const requestId = `edge-${Date.now()}`;
    const res = await get('/api/v1/me', {
      authorization: `Bearer ${user.token}`,
      'x-request-id': requestId,
      ...FORGED,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    // The gateway sees the token's user, not the forged X-Auth-User-Id: 1 (admin).
    expect(body.data).toMatchObject({ id: user.id, username: user.username });
    const sent = atGateway.get(requestId);
    expect(sent).toBeDefined();
    for (const name of Object.keys(FORGED)) expect(sent![name], name).toBeUndefined();
    expect(Object.keys(sent!).filter((name) => name.startsWith('x-auth-'))).toEqual([]);
    expect(sent!['x-forwarded-for']).toBe('127.0.0.1');
    expect(sent!['x-forwarded-proto']).toBe('http');
    expect(sent!.authorization).toBe(`Bearer ${user.token}`);

    // Without a client id, nginx's own goes to the gateway.
    const before = new Set(atGateway.keys());
    expect((await get('/api/v1/me', { authorization: `Bearer ${user.token}` })).status).toBe(200);
    const fresh = [...atGateway.keys()].filter((id) => !before.has(id));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps the verify endpoint off the public side', async () => {
    // nginx's internal location is not reachable by a client...
    expect((await get('/_approva_auth', { authorization: `Bearer ${user.token}` })).status).toBe(
      404,
    );
    // ...and the auth service's own route is not the gateway's: the path is a console page.
    const verify = await get('/internal/auth/verify', { authorization: `Bearer ${user.token}` });
    expect(verify.headers.get('x-auth-user-id')).toBeNull();
    expect(verify.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await verify.text()).not.toContain(user.username);
  });

  it('guards /internal-app/ with auth_request: 401 in the envelope without a valid token', async () => {
    const before = appRequests;
    for (const headers of [
      FORGED,
      { ...FORGED, authorization: 'Bearer not-a-token' },
      { authorization: `Basic ${Buffer.from('admin:admin123').toString('base64')}` },
    ]) {
      const res = await get('/internal-app/reports?month=11', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ code: 40100, message: 'not authenticated', data: null });
    }
    expect(appRequests).toBe(before);
  });

  it('passes the verify endpoint’s 403 through, in the envelope', async () => {
    // An administrator-created user must change the password first: verify answers 403.
    const username = uniq('edge_new');
    const password = 'Str0ng-Passw0rd!';
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password, nickname: 'Edge newcomer' },
    });
    expect(created.status).toBe(200);
    const session = await platform.login(username, password, undefined, {
      keepPasswordChange: true,
    });
    const before = appRequests;
    const res = await get('/internal-app/', { authorization: `Bearer ${session.access_token}` });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 40300, message: 'permission denied', data: null });
    expect(appRequests).toBe(before);
  });

  it('injects the identity of the token’s user into /internal-app/, never the client’s', async () => {
    const res = await get('/internal-app/reports?month=11', {
      authorization: `Bearer ${user.token}`,
      ...FORGED,
    });
    expect(res.status).toBe(200);
    const echo = (await res.json()) as { url: string; headers: IncomingHttpHeaders };
    expect(echo.url).toBe('/internal-app/reports?month=11');
    expect(echo.headers['x-auth-user-id']).toBe(String(user.id));
    expect(echo.headers['x-auth-tenant-id']).toBe('1');
    expect(echo.headers['x-auth-username']).toBe(encodeURIComponent(user.username));
    // A user without roles: nginx passes no empty X-Auth-Roles (nor the client's).
    expect(user.roles).toEqual([]);
    expect(echo.headers['x-auth-roles']).toBeUndefined();
    expect(echo.headers['x-auth-platform-admin']).toBe('false');
    for (const name of Object.keys(FORGED).filter((name) => !INJECTED.includes(name))) {
      expect(echo.headers[name], name).toBeUndefined();
    }
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');

    const admin = await get('/internal-app/', {
      authorization: `Bearer ${await platform.adminToken()}`,
    });
    expect(admin.status).toBe(200);
    const adminEcho = (await admin.json()) as { headers: IncomingHttpHeaders };
    expect(adminEcho.headers['x-auth-user-id']).toBe('1');
    expect(adminEcho.headers['x-auth-username']).toBe('admin');
    expect(adminEcho.headers['x-auth-roles']).toBe('super_admin');
    expect(adminEcho.headers['x-auth-platform-admin']).toBe('true');
  });

  it('answers a burst beyond the edge rate limit with 429, the envelope and Retry-After', async () => {
    // From another loopback address: its own limit, whatever the tests above spent.
    const before = gatewayRequests;
    const total = TEST_BURST + 30;
    const answers = await Promise.all(
      Array.from({ length: total }, () => getFrom('127.0.0.2', `${edge}/login`)),
    );
    const limited = answers.filter((a) => a.status === 429);
    const passed = answers.filter((a) => a.status === 200);
    expect(limited.length + passed.length).toBe(total);
    // The burst, plus the one request the rate itself allows (and a few seconds' worth more on a
    // loaded machine).
    expect(passed.length).toBeGreaterThanOrEqual(TEST_BURST + 1);
    expect(passed.length).toBeLessThanOrEqual(TEST_BURST + 5);
    for (const answer of limited) {
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.text)).toEqual({
        code: 42900,
        message: 'too many requests',
        data: null,
      });
    }
    // nginx answered them: the gateway saw only the requests that passed.
    expect(gatewayRequests - before).toBe(passed.length);
    // The limit is per address: 127.0.0.1 still gets through.
    expect((await get('/login')).status).toBe(200);
  });
});
