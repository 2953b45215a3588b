import { describe, expect, it } from 'vitest';
import { oauthProtocol } from './auth.routes-table.js';

describe('the OAuth2 forward-auth exception', () => {
  it.each([
    '/api/v1/oauth2/authorize',
    '/api/v1/oauth2/token?grant_type=x',
    '/oauth2/.well-known/openid-configuration',
    '/api/v1/oauth2/clientsx',
    '/api/v1/oauth2/x/clients',
  ])('keeps the protocol endpoint %s public', (path) => expect(oauthProtocol(path)).toBe(true));

  it.each([
    '/api/v1/oauth2/clients',
    '/api/v1/oauth2/clients/7/secret',
    '/api/v1/oauth2/CLIENTS',
    '/api/v1/oauth2//clients',
    '/api/v1//oauth2/clients',
    '/api/v1/oauth2/x/%2e%2e/clients',
    '/api/v1/oauth2/authorize/../clients',
    '/api/v1/oauth2/%63lients',
    '/api/v1/oauth2\\clients',
    '/oauth2/clients?redirect=/authorize',
    '/api/v1/oauth2/%FF/authorize',
  ])('puts %s behind forward-auth', (path) => expect(oauthProtocol(path)).toBe(false));
});
