import { describe, expect, it } from 'vitest';
import { normalizePath } from './request-path.js';

describe('normalizePath', () => {
  it.each([
    ['/api/v1/oauth2/clients', '/api/v1/oauth2/clients'],
    ['/api/v1/oauth2/clients?x=1', '/api/v1/oauth2/clients'],
    ['/api/v1/oauth2/x/%2e%2e/clients', '/api/v1/oauth2/clients'],
    ['/api/v1/oauth2/x/%2E%2E/clients/', '/api/v1/oauth2/clients/'],
    ['/api/v1//oauth2///clients', '/api/v1/oauth2/clients'],
    ['/api/v1/oauth2/./clients', '/api/v1/oauth2/clients'],
    ['/api/v1/oauth2%2fclients', '/api/v1/oauth2/clients'],
    ['/api/v1/oauth2\\clients', '/api/v1/oauth2/clients'],
    ['/../../etc', '/etc'],
    ['/', '/'],
    ['', '/'],
  ])('%s → %s', (url, path) => expect(normalizePath(url)).toBe(path));

  it('is null for invalid percent-encoding', () => {
    expect(normalizePath('/tasks/%FF%FE/approve')).toBeNull();
    expect(normalizePath('/a/%zz')).toBeNull();
  });

  it('runs in linear time on hostile input', () => {
    const started = performance.now();
    normalizePath(`/${'./..//'.repeat(200_000)}x`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
