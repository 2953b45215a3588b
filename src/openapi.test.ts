import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH, operationIdOf } from './openapi.js';

const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; responses?: object }>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

describe('operationIdOf', () => {
  it('joins method and path words in camel case, path parameters as by<Name>', () => {
    expect(operationIdOf('post', '/api/v1/bpm/tasks/{id}/add-sign')).toBe(
      'postBpmTasksByIdAddSign',
    );
    expect(operationIdOf('get', '/api/v1/me')).toBe('getMe');
    expect(operationIdOf('get', '/.well-known/openid-configuration')).toBe(
      'getWellKnownOpenidConfiguration',
    );
  });
});

describe('the committed OpenAPI document', () => {
  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists 4xx answers for every operation', () => {
    for (const { path, method, op } of operations) {
      expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toContain('400');
    }
  });

  it('resolves every $ref to a component it defines', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, kind, name] of refs) {
      const group = (doc.components as Record<string, Record<string, unknown>>)[kind!];
      expect(group?.[name!], `${kind}/${name}`).toBeDefined();
    }
  });
});
