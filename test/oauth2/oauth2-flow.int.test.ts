import { createHash } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { sql } from 'kysely';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import {
  clientConfig,
  codeFlow,
  issuerOf,
  REDIRECT_URI,
  registerClient,
} from './oauth2-harness.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

describe('OAuth2/OIDC server: discovery and the authorization-code flow', () => {
  it('publishes discovery under the issuer and at the bare alias', async () => {
    const res = await fetch(`${issuerOf(platform)}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(issuerOf(platform));
    expect(doc.authorization_endpoint).toBe(`${issuerOf(platform)}/authorize`);
    expect(doc.token_endpoint).toBe(`${issuerOf(platform)}/token`);
    expect(doc.introspection_endpoint).toBe(`${issuerOf(platform)}/introspect`);
    expect(doc.revocation_endpoint).toBe(`${issuerOf(platform)}/revoke`);
    expect(doc.userinfo_endpoint).toBe(`${issuerOf(platform)}/userinfo`);
    expect(doc.jwks_uri).toBe(`${issuerOf(platform)}/jwks`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    const bare = await fetch(`${platform.url}/.well-known/openid-configuration`);
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as Record<string, unknown>).issuer).toBe(issuerOf(platform));
  });

  it('answers a path under the issuer that is no endpoint with the 404 envelope', async () => {
    for (const url of [
      `${issuerOf(platform)}/no-such-endpoint`,
      `${platform.url}/oauth2/no-such-endpoint`,
    ]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
      expect(await res.json(), url).toEqual({ code: 40400, message: 'not found', data: null });
    }
    // An endpoint's own OAuth2 errors are untouched.
    const token = await fetch(`${issuerOf(platform)}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(400);
    expect(((await token.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('signs a platform user in through the sign-in page: code + PKCE, ID token, userinfo', async () => {
    const client = await registerClient(platform, {
      public: true,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
    });
    const config = await clientConfig(platform, client);
    const { tokens, callback } = await codeFlow(config);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(issuerOf(platform));
    expect(claims.aud).toBe(client.client_id);
    expect(claims.sub).toBe('1');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, '1');
    expect(info.preferred_username).toBe('admin');
    expect(info.tenant_id).toBe(1);
  });
});

describe('OAuth2/OIDC server: tokens', () => {
  const confidential = (extra: Record<string, unknown> = {}) =>
    registerClient(platform, {
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      ...extra,
    });

  it('rotates refresh tokens, and a reused one revokes the whole grant (RELIABILITY 2)', async () => {
    const client = await confidential();
    const config = await clientConfig(platform, client);
    const { tokens } = await codeFlow(config);
    const rt1 = tokens.refresh_token!;
    expect(rt1).toBeTruthy();
    const second = await oidc.refreshTokenGrant(config, rt1);
    const rt2 = second.refresh_token!;
    expect(rt2).toBeTruthy();
    expect(rt2).not.toBe(rt1);
    expect((await oidc.tokenIntrospection(config, second.access_token)).active).toBe(true);

    const reuse = await oidc.refreshTokenGrant(config, rt1).catch((err: unknown) => err);
    expect(reuse).toBeInstanceOf(oidc.ResponseBodyError);
    expect((reuse as oidc.ResponseBodyError).error).toBe('invalid_grant');

    expect(await oidc.tokenIntrospection(config, rt2)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, second.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    const afterFamily = await oidc.refreshTokenGrant(config, rt2).catch((err: unknown) => err);
    expect((afterFamily as oidc.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('issues client_credentials tokens that introspect as active for their own client', async () => {
    const client = await confidential();
    const config = await clientConfig(platform, client);
    const cc = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    expect(cc.access_token).toBeTruthy();
    expect(cc.refresh_token).toBeUndefined();
    const info = await oidc.tokenIntrospection(config, cc.access_token);
    expect(info.active).toBe(true);
    expect(info.client_id).toBe(client.client_id);
  });

  it('answers {active:false} to a client introspecting another client’s token, and ignores its revoke (RELIABILITY 17)', async () => {
    const x = await confidential();
    const y = await confidential();
    const xConfig = await clientConfig(platform, x);
    const yConfig = await clientConfig(platform, y);
    const { tokens } = await codeFlow(xConfig);
    expect(await oidc.tokenIntrospection(yConfig, tokens.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(yConfig, tokens.refresh_token!)).toEqual({
      active: false,
    });
    await oidc.tokenRevocation(yConfig, tokens.access_token);
    expect((await oidc.tokenIntrospection(xConfig, tokens.access_token)).active).toBe(true);
    await oidc.tokenRevocation(xConfig, tokens.access_token);
    expect(await oidc.tokenIntrospection(xConfig, tokens.access_token)).toEqual({ active: false });
  });

  it('stores tokens only as SHA-256 hashes', async () => {
    const client = await confidential();
    const config = await clientConfig(platform, client);
    const { tokens } = await codeFlow(config);
    const rows = await sql<{ dump: string }>`
      SELECT string_agg(id_hash || ' ' || payload::text, ' ') AS dump FROM auth_oauth_artifacts`.execute(
      platform.kernel.database.db,
    );
    const dump = rows.rows[0]!.dump;
    expect(dump).toContain(createHash('sha256').update(tokens.access_token).digest('hex'));
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token!);
  });

  it('issues RS256 at+jwt access tokens to a jwt client, verifiable against /jwks with the ID-token key', async () => {
    const client = await confidential({ access_token_format: 'jwt' });
    const config = await clientConfig(platform, client);
    const { tokens } = await codeFlow(config, { scope: 'openid api' });
    const jwks = createRemoteJWKSet(new URL(`${issuerOf(platform)}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: issuerOf(platform),
      audience: 'urn:approva:api',
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe('1');
    expect(payload.client_id).toBe(client.client_id);
    const idTokenHeader = decodeProtectedHeader(tokens.id_token!);
    expect(idTokenHeader.kid).toBe(protectedHeader.kid);

    const cc = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    const ccVerified = await jwtVerify(cc.access_token, jwks, {
      issuer: issuerOf(platform),
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(ccVerified.payload.client_id).toBe(client.client_id);
  });

  it('issues opaque access tokens by default', async () => {
    const client = await confidential();
    const config = await clientConfig(platform, client);
    const cc = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    expect(cc.access_token.split('.')).toHaveLength(1);
  });
});
