import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, OPENAPI_PATH } from '../src/openapi.js';
import { startTestPlatform } from './helpers/platform.js';

describe('OpenAPI document', () => {
  it('matches the code (run `npm run openapi` after changing a route)', async () => {
    const platform = await startTestPlatform();
    try {
      const generated = await buildOpenApiDocument(platform.kernel);
      const committed = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'));
      expect(committed).toEqual(generated);
      const served = await platform.call('GET', '/api/v1/openapi.json');
      expect(served.status).toBe(200);
      expect(served.body).toEqual(committed);
      for (const path of ['/api/v1/login', '/api/v1/me', '/api/v1/users', '/api/v1/tenants/{id}']) {
        expect(Object.keys(committed.paths)).toContain(path);
      }
    } finally {
      await platform.close();
    }
    // Builds every service once more besides the platform: slow on a loaded two-core machine.
  }, 90_000);
});

describe('OpenAPI document: the OAuth2 protocol endpoints', () => {
  it('documents each endpoint the discovery document names, at the path it is served', async () => {
    const platform = await startTestPlatform();
    try {
      const committed = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'));
      const discovery = await platform.call('GET', '/.well-known/openid-configuration');
      expect(discovery.status).toBe(200);
      const named = [
        'authorization_endpoint',
        'token_endpoint',
        'introspection_endpoint',
        'revocation_endpoint',
        'userinfo_endpoint',
        'jwks_uri',
      ].map((key) => new URL(discovery.body[key]).pathname);
      for (const path of [...named, '/.well-known/openid-configuration']) {
        expect(Object.keys(committed.paths), path).toContain(path);
      }
      expect(committed.paths['/api/v1/oauth2/token'].post.tags).toEqual(['oauth2']);
      const jwks = await platform.call('GET', '/api/v1/oauth2/jwks');
      expect([jwks.status, Array.isArray(jwks.body.keys)]).toEqual([200, true]);
    } finally {
      await platform.close();
    }
  });
});
