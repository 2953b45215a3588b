import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { GATEWAY_ROUTES } from '../../src/start.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/start.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { buildGatewayApp } from '../../src/services/gateway/gateway.app.js';
import { startTestPlatform, TEST_JWT_SECRET, type TestPlatform } from '../helpers/platform.js';

/** The policy's directives by name. */
function directivesOf(csp: string | null): Record<string, string> {
  return Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/, 1)[0]!, d.slice(d.indexOf(' ') + 1)]),
  );
}

/** What the console's pages must hold to (issue 15): any page the gateway serves as HTML. */
function expectPagePolicy(headers: Headers, path: string) {
  const csp = directivesOf(headers.get('content-security-policy'));
  expect(csp, path).toMatchObject({
    'default-src': "'self'",
    'script-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'none'",
    'frame-ancestors': "'none'",
  });
  expect(headers.get('x-content-type-options'), path).toBe('nosniff');
  expect(headers.get('referrer-policy'), path).toBe('no-referrer');
}

const INDEX = '<!doctype html><title>console</title><div id="root"></div>';
/** The sign-in page built ahead (web/scripts/prerender.mjs). */
const LOGIN = '<!doctype html><title>console</title><div id="root"></div><template></template>';
/** Big enough that compressing it pays (the static server skips tiny files). */
const SCRIPT = `console.log(${JSON.stringify('approva '.repeat(400))});`;

/** A raw GET: the bytes as sent, no decoding (fetch would undo Content-Encoding). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('the console served by the gateway', () => {
  let platform: TestPlatform;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'approva-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'login.html'), LOGIN);
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(join(dir, 'assets', 'app-def456.js'), SCRIPT);
    await writeFile(join(dir, 'assets', 'app-def456.js.br'), brotliCompressSync(SCRIPT));
    await writeFile(join(dir, 'assets', 'app-def456.js.gz'), gzipSync(SCRIPT));
    platform = await startTestPlatform({ CONSOLE_DIR: dir });
  });

  afterAll(async () => {
    await platform?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers index.html at / and at any client-side route', async () => {
    for (const path of ['/', '/todo', '/instances/42?tab=timeline', '/designer/7/edit']) {
      const res = await platform.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.text, path).toBe(INDEX);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
  });

  it('answers /login with the sign-in page built ahead, under the page policy', async () => {
    for (const path of ['/login', '/login?redirect=%2Ftodo']) {
      const res = await platform.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.text, path).toBe(LOGIN);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expectPagePolicy(res.headers, path);
    }
  });

  it('answers /password with the page on a reload or a direct link, the API under it unchanged', async () => {
    for (const path of ['/password', '/password?from=login', '/password/']) {
      const res = await platform.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.text, path).toBe(INDEX);
      expectPagePolicy(res.headers, path);
    }
    // The API aliases under the same prefix still reach the auth service.
    const forgot = await platform.call('POST', '/password/forgot', {
      body: { username_or_email: `nobody-${Date.now()}@example.test` },
    });
    expect(forgot.status).toBe(200);
    expect(forgot.body).toMatchObject({ code: 200 });
    const wrongMethod = await platform.call('GET', '/password/forgot');
    expect(wrongMethod.text).not.toMatch(/<html|<!doctype/i);
  });

  it('answers /monitor with the page on a reload or a direct link, the bare API aliases under it unchanged', async () => {
    for (const path of ['/monitor', '/monitor?tab=alerts&status=firing', '/monitor/']) {
      const res = await platform.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.text, path).toBe(INDEX);
      expectPagePolicy(res.headers, path);
    }
    // `/monitor/services` is still the API's alias of /api/v1/monitor/services (sign-in needed).
    const services = await platform.call('GET', '/monitor/services');
    expect(services.status).toBe(401);
    expect(services.text).not.toMatch(/<html|<!doctype/i);
  });

  it('answers robots.txt as text that keeps crawlers out, never the console page', async () => {
    const res = await platform.call('GET', '/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toBe('User-agent: *\nDisallow: /\n');
  });

  it('serves the precompressed brotli or gzip file by Accept-Encoding, long-cached', async () => {
    const url = `${platform.url}/assets/app-def456.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.equals(brotliCompressSync(SCRIPT))).toBe(true);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(gzipSync(SCRIPT))).toBe(true);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await rawGet(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('serves every page with a CSP, nosniff and no Referer, and no HSTS over plain HTTP', async () => {
    for (const path of ['/', '/reset-password?token=secret-reset-token', '/index.html']) {
      const res = await platform.call('GET', path);
      expect(res.status, path).toBe(200);
      expectPagePolicy(res.headers, path);
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
    const asset = await platform.call('GET', '/assets/index-abc123.js');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    // A client cannot ask for HSTS by claiming HTTPS: the default gateway trusts no proxy.
    const claimed = await platform.call('GET', '/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
  });

  it('serves the API reference under the same policy', async () => {
    for (const path of ['/api/docs/', '/api/docs/static/index.html']) {
      const res = await fetch(`${platform.url}${path}`);
      expect(res.status, path).toBe(200);
      expectPagePolicy(res.headers, path);
      // Over plain HTTP, an upgrade to HTTPS would break every script of the page.
      expect(res.headers.get('content-security-policy'), path).not.toMatch(/upgrade-insecure/);
    }
  });

  it('marks API answers nosniff and no-referrer too', async () => {
    const res = await platform.call('GET', '/api/v1/no-such-thing');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('sends HSTS when a trusted proxy says the request came over HTTPS', async () => {
    const settings = loadSettings({
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      CONSOLE_DIR: dir,
      GATEWAY_TRUST_PROXY: '127.0.0.1',
    });
    const gateway = await buildGatewayApp({
      routes: GATEWAY_ROUTES,
      settings,
      logger: createLogger('silent'),
      cache: platform.kernel.cache,
      upstreams: platform.serviceUrls,
    });
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.app.server.address() as { port: number };
    try {
      const https = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
      const http = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { 'x-forwarded-proto': 'http' },
      });
      expect(http.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await gateway.close();
    }
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await platform.call('GET', '/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log(1)');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('never shadows the API: an unknown API path is the 404 envelope, not the page', async () => {
    for (const path of ['/api/v1/no-such-thing', '/api/nope', '/metrics']) {
      const res = await platform.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe(40400);
    }
    // The OAuth2 server answers its own unknown paths, never the console's page.
    const oauth = await platform.call('GET', '/oauth2/nope/x');
    expect(oauth.status).toBe(404);
    expect(oauth.text).not.toMatch(/<html/i);
    const me = await platform.call('GET', '/api/v1/me');
    expect(me.status).toBe(401);
    const login = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123' },
    });
    expect(login.status).toBe(200);
  });

  it('serves the browsable API reference at /api/docs beside the OpenAPI document', async () => {
    const docs = await fetch(`${platform.url}/api/docs/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await docs.text()).toContain('swagger');
    const shown = await platform.call('GET', '/api/docs/json');
    const published = await platform.call('GET', '/api/v1/openapi.json');
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(published.body);
    expect(Object.keys(shown.body.paths)).toContain('/api/v1/bpm/tasks/{id}/approve');
  });
});

describe("the console's index.html", () => {
  // The policy allows scripts from the origin only: an inline script would be blocked. Vite
  // copies the source page's scripts into the build and adds only <script src> of its own.
  it('has no inline script the CSP would block', async () => {
    const html = await readFile(new URL('../../web/index.html', import.meta.url), 'utf8');
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/\ssrc=/);
  });
});

describe('the gateway without a built console', () => {
  it('answers a page request with a 404 envelope saying so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'approva-noconsole-'));
    const platform = await startTestPlatform({ CONSOLE_DIR: dir });
    try {
      const res = await platform.call('GET', '/todo');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 40400, message: 'the console is not built' });
    } finally {
      await platform.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
