import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryCache, type Cache } from '../../../platform/cache/cache.js';
import { sha256 } from './artifacts.repo.js';
import { ClientRateLimit, presentedCredentials } from './client-rate-limit.js';
import type { ClientRow, ClientStore } from './clients.repo.js';

const secret = 's3cret-value';
const row: ClientRow = {
  id: 1,
  client_id: 'c1',
  name: 'c1',
  secret_hash: sha256(secret),
  redirect_uris: [],
  grant_types: ['client_credentials'],
  public: false,
  access_token_format: 'opaque',
  token_rate_per_minute: 2,
  created_at: new Date(),
  updated_at: new Date(),
};
const store: ClientStore = {
  find: async (id) => (id === 'c1' ? row : undefined),
  metadataOf: async () => undefined,
};
const basic = (id: string, s: string) => `Basic ${Buffer.from(`${id}:${s}`).toString('base64')}`;
const logger = pino({ level: 'silent' });

describe('ClientRateLimit', () => {
  it('limits an authenticated client at its rate and tells how long to wait', async () => {
    const limit = new ClientRateLimit({ clients: store, cache: new MemoryCache(), logger });
    expect(await limit.check(basic('c1', secret), '')).toBeUndefined();
    expect(await limit.check(basic('c1', secret), '')).toBeUndefined();
    const wait = await limit.check(basic('c1', secret), '');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  it('does not count requests that fail client authentication', async () => {
    const limit = new ClientRateLimit({ clients: store, cache: new MemoryCache(), logger });
    for (let i = 0; i < 5; i++) expect(await limit.check(basic('c1', 'wrong'), '')).toBeUndefined();
    expect(await limit.check(basic('c1', secret), '')).toBeUndefined();
  });

  it('lets requests through when the cache fails', async () => {
    const broken = new MemoryCache() as Cache;
    broken.takeToken = async () => {
      throw new Error('redis down');
    };
    const limit = new ClientRateLimit({ clients: store, cache: broken, logger });
    for (let i = 0; i < 5; i++) expect(await limit.check(basic('c1', secret), '')).toBeUndefined();
  });
});

describe('presentedCredentials', () => {
  it('reads form-encoded Basic credentials', () => {
    expect(presentedCredentials(basic('a%20b', 'x%3Ay'), new URLSearchParams())).toEqual({
      clientId: 'a b',
      secret: 'x:y',
    });
  });

  it('reads a public client’s client_id from the form', () => {
    expect(presentedCredentials(undefined, new URLSearchParams('client_id=p1'))).toEqual({
      clientId: 'p1',
      secret: undefined,
    });
  });

  it('ignores a Basic header that is not credentials', () => {
    expect(presentedCredentials('Basic !!!', new URLSearchParams())).toBeUndefined();
  });
});
