import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForEvent } from '../helpers/events.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { authorizeInBrowser, issuerOf, registerClient } from '../oauth2/oauth2-harness.js';

const CALLBACK = 'https://console.example.test/oauth/callback';
const PASSWORD = 'External-User-Pass-5';

// The platform's own OIDC server (provider) is the external provider of a second platform.
let provider: TestPlatform;
let platform: TestPlatform;
beforeAll(async () => {
  provider = await startTestPlatform();
  const client = await registerClient(provider, {
    redirect_uris: [`${CALLBACK}/oidc`],
    grant_types: ['authorization_code'],
  });
  platform = await startTestPlatform({
    OAUTH_LOGIN_ENABLED: 'true',
    OAUTH_OIDC_ISSUER: issuerOf(provider),
    OAUTH_OIDC_CLIENT_ID: client.client_id,
    OAUTH_OIDC_CLIENT_SECRET: client.client_secret!,
    OAUTH_REDIRECT_URL: CALLBACK,
  });
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await provider?.close();
});

/** Starts at the platform, signs in at the provider as its admin; answers code and state. */
async function throughProvider(start: { authorization_url: string; state: string }) {
  const callback = await authorizeInBrowser(start.authorization_url, `${CALLBACK}/oidc`, {
    username: 'admin',
    password: 'admin123',
  });
  expect(callback.searchParams.get('state')).toBe(start.state);
  return {
    code: callback.searchParams.get('code')!,
    state: start.state,
    iss: callback.searchParams.get('iss')!,
  };
}

describe('external sign-in through an OpenID Connect provider', () => {
  it('refuses an unlinked account, links it from the profile, then signs in as that user (login type oidc)', async () => {
    const username = uniq('ext');
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password: PASSWORD },
    });
    expect(created.status).toBe(200);

    const start1 = await platform.call('GET', '/api/v1/login/oauth/oidc');
    expect(start1.status).toBe(200);
    expect(start1.body.data.authorization_url.startsWith(`${issuerOf(provider)}/authorize?`)).toBe(
      true,
    );
    const unlinked = await platform.call('POST', '/api/v1/login/oauth/oidc/callback', {
      body: await throughProvider(start1.body.data),
    });
    expect(unlinked.status).toBe(401);
    expect(unlinked.body.code).toBe(40105);
    expect(unlinked.body.message).toMatch(/link it from your profile/);

    const { access_token: token } = await platform.login(username, PASSWORD);
    const linkStart = await platform.call('POST', '/api/v1/me/oauth/oidc/link', { token });
    expect(linkStart.status).toBe(200);
    const linked = await platform.call('POST', '/api/v1/me/oauth/oidc/link/callback', {
      token,
      body: await throughProvider(linkStart.body.data),
    });
    expect(linked.status).toBe(200);

    const start2 = await platform.call('GET', '/api/v1/login/oauth/oidc');
    const answer = await throughProvider(start2.body.data);
    const signedIn = await platform.call('POST', '/api/v1/login/oauth/oidc/callback', {
      body: answer,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.username).toBe(username);
    const me = await platform.call('GET', '/api/v1/me', { token: signedIn.body.data.access_token });
    expect(me.body.data.username).toBe(username);
    const event = await waitForEvent(
      platform,
      'auth.login.success',
      (p) => p.username === username && p.login_type === 'oidc',
    );
    expect(event.success).toBe(true);

    const replay = await platform.call('POST', '/api/v1/login/oauth/oidc/callback', {
      body: answer,
    });
    expect(replay.status).toBe(400);
  });

  it('refuses a state it did not issue, and an unknown provider', async () => {
    const forged = await platform.call('POST', '/api/v1/login/oauth/oidc/callback', {
      body: { code: 'x', state: 'not-issued' },
    });
    expect(forged.status).toBe(400);
    expect((await platform.call('GET', '/api/v1/login/oauth/github')).status).toBe(404);
  });
});
