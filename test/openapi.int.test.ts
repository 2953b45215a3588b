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
