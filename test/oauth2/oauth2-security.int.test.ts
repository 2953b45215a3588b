import { createHash, randomBytes } from 'node:crypto';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportSPKI,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTHeaderParameters,
} from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import type { OAuthTables } from '../../src/services/auth/oauth2/oauth2.tables.js';
import { KeyCipher } from '../../src/services/auth/oauth2/signing-keys.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import {
  authorizeInBrowser,
  clientConfig,
  codeFlow,
  issuerOf,
  REDIRECT_URI,
  registerClient,
  type RegisteredClient,
} from './oauth2-harness.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

const admin = { username: 'admin', password: 'admin123' };
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function tokenRequest(form: Record<string, string>, authorization?: string) {
  const res = await fetch(`${issuerOf(platform)}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as Record<string, any>,
  };
}

function authorizeUrl(clientId: string, params: Record<string, string>) {
  const url = new URL(`${issuerOf(platform)}/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid',
    state: 'st',
    ...params,
  }).toString();
  return url;
}

/** A code for the client, through the real sign-in page (PKCE as given). */
async function codeFor(client: RegisteredClient, pkce: Record<string, string>) {
  const callback = await authorizeInBrowser(
    authorizeUrl(client.client_id, { redirect_uri: REDIRECT_URI, ...pkce }),
    REDIRECT_URI,
    admin,
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.toString()}`);
  return code;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('redirect URIs (RELIABILITY 20)', () => {
  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['https://app.example.test@evil.example/callback'],
    ['ftp://app.example.test/callback'],
  ])('refuses %s at registration', async (uri) => {
    const res = await platform.call('POST', '/api/v1/oauth2/clients', {
      token: await platform.adminToken(),
      body: { name: 'bad', redirect_uris: [uri], grant_types: ['authorization_code'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,x'],
    ['http://evil.example/callback'],
    [`${REDIRECT_URI}?x=1`],
    [`${REDIRECT_URI}#f`],
    ['https://app.example.test/x/../callback'],
    [`${REDIRECT_URI}/`],
    ['https://APP.example.test/callback'],
    ['https://app.example.test@evil.example/callback'],
    ['https://app.example.test/%63allback'],
  ])('answers an error page and never redirects for %s', async (uri) => {
    const client = await registerClient(platform, {
      public: true,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
    });
    const res = await fetch(
      authorizeUrl(client.client_id, {
        redirect_uri: uri,
        code_challenge: s256('x'.repeat(43)),
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_redirect_uri');
  });
});

describe('PKCE (RELIABILITY 21)', () => {
  let pub: RegisteredClient;
  let conf: RegisteredClient;
  beforeAll(async () => {
    pub = await registerClient(platform, {
      public: true,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
    });
    conf = await registerClient(platform, {
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
    });
  });

  it('refuses a public client’s authorization request without a code challenge', async () => {
    const res = await fetch(authorizeUrl(pub.client_id, { redirect_uri: REDIRECT_URI }), {
      redirect: 'manual',
    });
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses the plain method', async () => {
    const res = await fetch(
      authorizeUrl(pub.client_id, {
        redirect_uri: REDIRECT_URI,
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'plain',
      }),
      { redirect: 'manual' },
    );
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses a verifier sent for a code issued without a challenge', async () => {
    const code = await codeFor(conf, {});
    const res = await tokenRequest(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: 'v'.repeat(43),
      },
      basic(conf.client_id, conf.client_secret!),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it.each([
    // oidc-provider checks the verifier's format (RFC 7636 §4.1) before comparing: a malformed
    // one is invalid_request, a well-formed wrong one invalid_grant.
    ['a wrong verifier', 'invalid_grant', 'w'.repeat(43), 'v'.repeat(43)],
    ['a 42-character verifier', 'invalid_request', 'v'.repeat(42), 'v'.repeat(42)],
    ['a 129-character verifier', 'invalid_request', 'v'.repeat(129), 'v'.repeat(129)],
  ])('answers %s with %s and issues nothing', async (_label, error, sent, challenged) => {
    const code = await codeFor(pub, {
      code_challenge: s256(challenged),
      code_challenge_method: 'S256',
    });
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: pub.client_id,
      code_verifier: sent,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.body.access_token).toBeUndefined();
  });
});

describe('client authentication and the per-client rate limit (RELIABILITY 22)', () => {
  it('answers every client-authentication failure with one identical invalid_client body', async () => {
    const client = await registerClient(platform, { grant_types: ['client_credentials'] });
    const form = { grant_type: 'client_credentials' };
    const failures = await Promise.all([
      tokenRequest(form, basic('no-such-client', 'whatever')),
      tokenRequest(form, basic(client.client_id, 'wrong-secret')),
      tokenRequest(form, basic(client.client_id, `${client.client_secret}x`)),
      tokenRequest({ ...form, client_id: client.client_id, client_secret: client.client_secret! }),
      tokenRequest({ ...form, client_id: client.client_id }),
    ]);
    expect(failures.map((r) => r.status)).toEqual(failures.map(() => 401));
    for (const res of failures) expect(res.body).toEqual(failures[0]!.body);
    expect(failures[0]!.body).toEqual({
      error: 'invalid_client',
      error_description: 'client authentication failed',
    });
    // A header that is not Basic credentials at all is a malformed request, not a failed login.
    const malformed = await tokenRequest(form, 'Basic !!!not-base64');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_request');
  });

  it('answers 429 slow_down with Retry-After to a client over its rate while another is unaffected; revoke is not limited', async () => {
    const x = await registerClient(platform, {
      grant_types: ['client_credentials'],
      token_rate_per_minute: 3,
    });
    const y = await registerClient(platform, {
      grant_types: ['client_credentials'],
      token_rate_per_minute: 3,
    });
    const xAuth = basic(x.client_id, x.client_secret!);
    const form = { grant_type: 'client_credentials', scope: 'api' };
    const first = await tokenRequest(form, xAuth);
    expect(first.status).toBe(200);
    expect((await tokenRequest(form, xAuth)).status).toBe(200);
    const introspect = await fetch(`${issuerOf(platform)}/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: xAuth },
      body: new URLSearchParams({ token: first.body.access_token }).toString(),
    });
    expect(introspect.status).toBe(200);
    const over = await tokenRequest(form, xAuth);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('slow_down');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const overIntrospect = await fetch(`${issuerOf(platform)}/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: xAuth },
      body: new URLSearchParams({ token: first.body.access_token }).toString(),
    });
    expect(overIntrospect.status).toBe(429);

    expect((await tokenRequest(form, basic(y.client_id, y.client_secret!))).status).toBe(200);
    // A stranger failing authentication as X does not spend X's budget, and is not limited either.
    expect((await tokenRequest(form, basic(x.client_id, 'wrong'))).status).toBe(401);

    const revoke = await fetch(`${issuerOf(platform)}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: xAuth },
      body: new URLSearchParams({ token: first.body.access_token }).toString(),
    });
    expect(revoke.status).toBe(200);
  });
});

describe('authorization-code replay (RELIABILITY 3)', () => {
  let client: RegisteredClient;
  let config: oidc.Configuration;
  beforeAll(async () => {
    client = await registerClient(platform, {
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      // The race runs 200 rounds of two exchanges in the whole matrix: far over the default
      // 120 token requests a minute, whose 429 would hide the outcome the race checks.
      token_rate_per_minute: 100_000,
    });
    config = await clientConfig(platform, client);
  });
  const exchange = (code: string) =>
    tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      basic(client.client_id, client.client_secret!),
    );

  it('answers invalid_grant to a second exchange and revokes what the first one issued', async () => {
    const code = await codeFor(client, {});
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const second = await exchange(code);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect(await oidc.tokenIntrospection(config, first.body.access_token)).toEqual({
      active: false,
    });
    expect(await oidc.tokenIntrospection(config, first.body.refresh_token)).toEqual({
      active: false,
    });
  });

  it('answers invalid_grant to a replay 30 s after the exchange, and revokes what it issued', async () => {
    const code = await codeFor(client, {});
    const first = await exchange(code);
    expect(first.status).toBe(200);
    // Half a minute later (the clock moved on, not waited for): still inside the code's 60 s
    // life, so the provider knows the code as used rather than as unknown.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      const replay = await exchange(code);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
      for (const token of [first.body.access_token, first.body.refresh_token]) {
        expect(await oidc.tokenIntrospection(config, token)).toEqual({ active: false });
      }
    } finally {
      vi.useRealTimers();
    }
  });

  raceIt('lets exactly one of two concurrent exchanges of one code win', async () => {
    const code = await codeFor(client, {});
    const idHash = createHash('sha256').update(code).digest('hex');
    const results = await raceOnRowLock(
      platform.settings.database.url,
      `SELECT 1 FROM auth_oauth_artifacts WHERE model = 'AuthorizationCode' AND id_hash = $1 FOR UPDATE`,
      [idHash],
      () => Promise.all([exchange(code), exchange(code)]),
      2,
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
    const winner = results.find((r) => r.status === 200)!;
    expect(await oidc.tokenIntrospection(config, winner.body.access_token)).toEqual({
      active: false,
    });
  });

  it('never answers 5xx to a malformed token request', async () => {
    const garbage = await fetch(`${issuerOf(platform)}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${randomBytes(3000).toString('hex')}`,
    });
    expect(garbage.status).toBeLessThan(500);
    const big = await fetch(`${issuerOf(platform)}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&pad=${'a'.repeat(100_000)}`,
    });
    expect(big.status).toBe(413);
  });
});

describe('forged JWT access tokens (RELIABILITY 18, 19)', () => {
  /**
   * The platform issues RS256 `at+jwt` access tokens for resource servers to verify against
   * /jwks; it takes none as a credential itself: its API takes only its own HS256 tokens
   * (forward-auth), `/userinfo` and `/introspect` only tokens it stored (opaque ones). So a
   * forgery must get exactly what the genuine token gets at each of them, and the resource
   * server's check API.md documents (RS256, `typ: at+jwt`, issuer, audience) must refuse it.
   */
  it('answers every forgery as the genuine token: 401 in one shape at the API and /userinfo, never introspected; the documented check refuses it', async () => {
    const client = await registerClient(platform, {
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
      access_token_format: 'jwt',
    });
    const config = await clientConfig(platform, client);
    const { tokens } = await codeFlow(config, { scope: 'openid api' });
    const genuine = tokens.access_token;
    const header = decodeProtectedHeader(genuine);
    const claims = decodeJwt(genuine);
    expect([header.alg, header.typ, claims.sub]).toEqual(['RS256', 'at+jwt', '1']);

    // The server's own signing key, as a thief of it would hold it: decrypted from storage.
    const stored = await platform.kernel.database.db
      .withTables<OAuthTables>()
      .selectFrom('auth_oauth_signing_keys')
      .where('kid', '=', header.kid!)
      .select('private_jwk_encrypted')
      .executeTakeFirstOrThrow();
    const privateJwk = JSON.parse(
      new KeyCipher(platform.settings.auth.oidc.keyEncryptionKey).open(
        stored.private_jwk_encrypted,
      ),
    ) as JWK;
    const serverKey = await importJWK(privateJwk, 'RS256');
    const { keys } = (await (await fetch(`${issuerOf(platform)}/jwks`)).json()) as {
      keys: JWK[];
    };
    const publicJwk = keys.find((k) => k.kid === header.kid)!;
    const publicPem = await exportSPKI(
      (await importJWK(publicJwk, 'RS256')) as Parameters<typeof exportSPKI>[0],
    );
    const stranger = (await generateKeyPair('RS256')).privateKey;

    const now = Math.floor(Date.now() / 1000);
    const sign = (
      protectedHeader: JWTHeaderParameters,
      key: Parameters<SignJWT['sign']>[0],
      extra: Record<string, unknown> = {},
    ) => new SignJWT({ ...claims, ...extra }).setProtectedHeader(protectedHeader).sign(key);
    const forgeries: Record<string, string> = {
      // Key confusion: HS256 keyed with the RS256 public key, as PEM text and as the JWK.
      'HS256 keyed with the public PEM': await sign(
        { alg: 'HS256', typ: 'at+jwt', kid: header.kid },
        new TextEncoder().encode(publicPem),
      ),
      'HS256 keyed with the public JWK': await sign(
        { alg: 'HS256', typ: 'at+jwt', kid: header.kid },
        new TextEncoder().encode(JSON.stringify(publicJwk)),
      ),
      'an unknown kid': await sign({ alg: 'RS256', typ: 'at+jwt', kid: 'unknown-kid' }, stranger),
      // The rest are signed with the server's real key: only the claims or header are wrong.
      'typ JWT': await sign({ alg: 'RS256', typ: 'JWT', kid: header.kid }, serverKey),
      'nbf in the future': await sign({ alg: 'RS256', typ: 'at+jwt', kid: header.kid }, serverKey, {
        nbf: now + 3600,
      }),
      'another audience': await sign({ alg: 'RS256', typ: 'at+jwt', kid: header.kid }, serverKey, {
        aud: 'urn:other:api',
      }),
      'another issuer': await sign({ alg: 'RS256', typ: 'at+jwt', kid: header.kid }, serverKey, {
        iss: 'https://issuer.example.test/api/v1/oauth2',
      }),
    };

    const answers = async (token: string) => {
      const api = await platform.call('GET', '/api/v1/me', { token });
      const userinfo = await fetch(`${issuerOf(platform)}/userinfo`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const introspection = await fetch(`${issuerOf(platform)}/introspect`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(client.client_id, client.client_secret!),
        },
        body: new URLSearchParams({ token }).toString(),
      });
      return {
        api: [api.status, api.body],
        userinfo: [userinfo.status, await userinfo.json()],
        introspection: [introspection.status, await introspection.json()],
      };
    };
    const refused = await answers(genuine);
    expect(refused).toEqual({
      api: [401, { code: 40100, message: expect.any(String), data: null }],
      userinfo: [401, { error: 'invalid_token', error_description: expect.any(String) }],
      // oidc-provider refuses to introspect any JWT-shaped token: nothing is looked up.
      introspection: [
        400,
        {
          error: 'unsupported_token_type',
          error_description:
            'Structured JWT Tokens cannot be introspected via the introspection_endpoint',
        },
      ],
    });
    const jwks = createLocalJWKSet({ keys });
    const resourceServerCheck = (token: string) =>
      jwtVerify(token, jwks, {
        algorithms: ['RS256'],
        typ: 'at+jwt',
        issuer: issuerOf(platform),
        audience: 'urn:approva:api',
      });
    await expect(resourceServerCheck(genuine)).resolves.toBeTruthy();
    for (const [name, forged] of Object.entries(forgeries)) {
      expect({ name, ...(await answers(forged)) }).toEqual({ name, ...refused });
      await expect(resourceServerCheck(forged), name).rejects.toThrow();
    }
  });
});
