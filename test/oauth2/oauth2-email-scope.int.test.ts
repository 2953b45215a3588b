import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { clientConfig, codeFlow, REDIRECT_URI, registerClient } from './oauth2-harness.js';

const PASSWORD = 'Email-Scope-Pass-3';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

async function userWith(email: string | null) {
  const username = uniq('mail');
  const created = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD, email },
  });
  expect(created.status).toBe(200);
  await platform.login(username, PASSWORD); // the first sign-in's password change
  return { username, id: String(created.body.data.id) };
}

describe('OAuth2/OIDC server: the email scope', () => {
  it('is published in discovery with its claims', async () => {
    const config = await clientConfig(
      platform,
      await registerClient(platform, {
        public: true,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
      }),
    );
    const metadata = config.serverMetadata();
    expect(metadata.scopes_supported).toContain('email');
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['email', 'email_verified']));
  });

  it('gives userinfo the address, never as verified, only when the scope was granted', async () => {
    const email = `${uniq('u')}@mail.example.test`;
    const user = await userWith(email);
    const config = await clientConfig(
      platform,
      await registerClient(platform, {
        public: true,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
      }),
    );
    const credentials = { username: user.username, password: PASSWORD };

    const withEmail = await codeFlow(config, { scope: 'openid email', credentials });
    const info = await oidc.fetchUserInfo(config, withEmail.tokens.access_token, user.id);
    expect(info).toMatchObject({ sub: user.id, email, email_verified: false });

    const without = await codeFlow(config, { scope: 'openid profile', credentials });
    const plain = await oidc.fetchUserInfo(config, without.tokens.access_token, user.id);
    expect(plain.preferred_username).toBe(user.username);
    expect(plain.email).toBeUndefined();
    expect(plain.email_verified).toBeUndefined();

    const none = await userWith(null);
    const noAddress = await codeFlow(config, {
      scope: 'openid email',
      credentials: { username: none.username, password: PASSWORD },
    });
    const empty = await oidc.fetchUserInfo(config, noAddress.tokens.access_token, none.id);
    expect(empty.sub).toBe(none.id);
    expect(empty.email).toBeUndefined();
  });
});
