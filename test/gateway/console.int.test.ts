import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';

const INDEX = '<!doctype html><title>console</title><div id="root"></div>';

describe('the console served by the gateway', () => {
  let platform: TestPlatform;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'approva-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
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
