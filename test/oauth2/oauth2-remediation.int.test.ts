import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import {
  smtpSettings,
  startSmtpSink,
  waitForMail,
  type Received,
  type SmtpSink,
} from '../helpers/smtp-sink.js';
import {
  authorizeInBrowser,
  Browser,
  clientConfig,
  codeFlow,
  REDIRECT_URI,
  registerClient,
} from './oauth2-harness.js';

// What ends a user's platform sessions ends the OAuth grants they gave as well: a refresh token
// of the authorization-code flow stops working.

let sink: SmtpSink;
let platform: TestPlatform;
let admin: string;
let config: oidc.Configuration;

beforeAll(async () => {
  sink = await startSmtpSink();
  platform = await startTestPlatform({
    ...smtpSettings(sink),
    PASSWORD_RESET_URL: 'https://console.example.test/reset',
  });
  admin = await platform.adminToken();
  const client = await registerClient(platform, {
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
  });
  config = await clientConfig(platform, client);
}, 60_000);
afterAll(async () => {
  await platform?.close();
  await sink?.close();
});

const PASSWORD = 'Granting-User-2026';
const NEXT_PASSWORD = 'Remediated-User-2026';

/** A user (first password change done) who has granted the client access, with its tokens. */
async function userWithGrant() {
  const username = uniq('granter');
  const email = `${username}@mail.example.test`;
  const created = await platform.call('POST', '/api/v1/users', {
    token: admin,
    body: { username, password: PASSWORD, email },
  });
  expect(created.status).toBe(200);
  const session = await platform.login(username, PASSWORD);
  const { tokens } = await codeFlow(config, {
    scope: 'openid offline_access',
    credentials: { username, password: PASSWORD },
  });
  // The grant works before the remediation (one rotation).
  const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  return { id: created.body.data.id as number, username, email, session, tokens: rotated };
}

async function expectGrantEnded(tokens: { refresh_token?: string; access_token: string }) {
  const refused = await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((e) => e);
  expect(refused).toBeInstanceOf(oidc.ResponseBodyError);
  expect((refused as oidc.ResponseBodyError).error).toBe('invalid_grant');
  const info = await fetch(`${platform.url}/api/v1/oauth2/userinfo`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(info.status).toBe(401);
}

function resetTokenOf(mail: Received): string {
  const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https:\/\/console\.example\.test\/reset\?token=([A-Za-z0-9_-]+)/.exec(body);
  if (!match) throw new Error(`no reset link in ${body}`);
  return match[1]!;
}

describe('an OAuth grant ends with the user’s sessions', () => {
  it('when an administrator sets a new password', async () => {
    const user = await userWithGrant();
    const res = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { password: NEXT_PASSWORD },
    });
    expect(res.status).toBe(200);
    await expectGrantEnded(user.tokens);
  });

  it('when the password is reset by mail', async () => {
    const user = await userWithGrant();
    const seen = sink.inbox.length;
    await platform.call('POST', '/api/v1/password/forgot', {
      body: { username_or_email: user.username },
    });
    const token = resetTokenOf(await waitForMail(sink, user.email, seen));
    const res = await platform.call('POST', '/api/v1/password/reset', {
      body: { token, new_password: NEXT_PASSWORD },
    });
    expect(res.status).toBe(200);
    await expectGrantEnded(user.tokens);
  });

  it('when the user changes the password (their current session stays)', async () => {
    const user = await userWithGrant();
    const res = await platform.call('POST', '/api/v1/me/password', {
      token: user.session.access_token,
      body: { old_password: PASSWORD, new_password: NEXT_PASSWORD },
    });
    expect(res.status).toBe(200);
    await expectGrantEnded(user.tokens);
    const me = await platform.call('GET', '/api/v1/me', { token: user.session.access_token });
    expect(me.status).toBe(200);
  });

  it('when an administrator ends the user’s session', async () => {
    const user = await userWithGrant();
    const sessionId = Number(decodeJwt(user.session.access_token).sid);
    const res = await platform.call('DELETE', `/api/v1/sessions/${sessionId}`, { token: admin });
    expect(res.status).toBe(200);
    await expectGrantEnded(user.tokens);
  });

  it('when the user turns two-step sign-in on', async () => {
    const user = await userWithGrant();
    const token = user.session.access_token;
    const enrol = await platform.call('POST', '/api/v1/me/totp/enroll', {
      token,
      body: { password: PASSWORD },
    });
    const code = await generate({ secret: enrol.body.data.secret as string });
    const confirm = await platform.call('POST', '/api/v1/me/totp/confirm', {
      token,
      body: { code, password: PASSWORD },
    });
    expect(confirm.status).toBe(200);
    await expectGrantEnded(user.tokens);
  });

  it('when the user is disabled, and enabling them again does not revive it', async () => {
    const user = await userWithGrant();
    for (const status of ['disabled', 'active']) {
      const res = await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { status },
      });
      expect(res.status).toBe(200);
    }
    await expectGrantEnded(user.tokens);
  });

  it('when the user’s tenant is disabled, and enabling it again does not revive it', async () => {
    const code = uniq('tenant');
    const username = uniq('boss');
    const tenant = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code, name: code, admin_username: username, admin_password: PASSWORD },
    });
    expect(tenant.status).toBe(200);
    await platform.login(username, PASSWORD, code);
    const { tokens } = await codeFlow(config, {
      scope: 'openid offline_access',
      credentials: { username, password: PASSWORD, tenant_code: code },
    });
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    for (const status of ['disabled', 'active']) {
      const res = await platform.call('PUT', `/api/v1/tenants/${tenant.body.data.id}`, {
        token: admin,
        body: { status },
      });
      expect(res.status).toBe(200);
    }
    await expectGrantEnded(rotated);
  });

  it('and a new sign-in grants again', async () => {
    const user = await userWithGrant();
    await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { password: NEXT_PASSWORD },
    });
    await expectGrantEnded(user.tokens);
    // A password an administrator set is changed at the next sign-in before any client is let in.
    await platform.login(user.username, NEXT_PASSWORD);
    const again = await codeFlow(config, {
      scope: 'openid offline_access',
      credentials: { username: user.username, password: NEXT_PASSWORD },
    });
    const rotated = await oidc.refreshTokenGrant(config, again.tokens.refresh_token!);
    expect(rotated.access_token).toBeTruthy();
  });

  it('and the browser’s sign-in at the server no longer authorizes without the password', async () => {
    const user = await userWithGrant();
    const browser = new Browser();
    const authorizeUrl = () =>
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        state: oidc.randomState(),
      });
    const credentials = { username: user.username, password: PASSWORD };
    await authorizeInBrowser(authorizeUrl(), REDIRECT_URI, credentials, browser);
    // Signed in at the server: the next authorization goes straight back to the client.
    expect(await landingOf(browser, authorizeUrl())).toBe('client');
    await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { password: NEXT_PASSWORD },
    });
    expect(await landingOf(browser, authorizeUrl())).toBe('sign-in');
  });
});

/** Where the browser ends up from `url`: back at the client, or on the sign-in page. */
async function landingOf(browser: Browser, url: URL) {
  let next = url.toString();
  for (let step = 0; step < 8; step++) {
    const response = await browser.request(next);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      next = new URL(location, next).toString();
      if (next.startsWith(REDIRECT_URI)) return 'client';
      continue;
    }
    const html = await response.text();
    return html.includes('name="password"') ? 'sign-in' : 'other';
  }
  return 'other';
}
