import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForEvent } from '../helpers/events.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { enableTotp, totpCodeAt } from '../helpers/totp.js';
import {
  authorizeInBrowser,
  Browser,
  clientConfig,
  codeFlow,
  formOf,
  issuerOf,
  REDIRECT_URI,
  registerClient,
} from './oauth2-harness.js';

let platform: TestPlatform;
let config: oidc.Configuration;
beforeAll(async () => {
  // A long backoff, so an account held back stays held back while a test drives the page.
  platform = await startTestPlatform({ LOGIN_BACKOFF_BASE: '1h' });
  const client = await registerClient(platform, {
    public: true,
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code'],
  });
  config = await clientConfig(platform, client);
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

/** Opens the authorization URL in a fresh browser and returns it on the sign-in page. */
async function signInPage(client = config) {
  const browser = new Browser();
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: 'abc',
  });
  let res = await browser.request(url.toString());
  let at = url.toString();
  while (res.status >= 300 && res.status < 400) {
    at = new URL(res.headers.get('location')!, at).toString();
    res = await browser.request(at);
  }
  const html = await res.text();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  return { browser, html, form: formOf(html, at) };
}

describe('the sign-in page', () => {
  it('is an HTML form without JavaScript with username, password and tenant-code inputs', async () => {
    const { html, form } = await signInPage();
    expect(form.inputs).toEqual(['username', 'password', 'tenant_code']);
    expect(html).toMatch(
      /<input[^>]*name="password"[^>]*type="password"|type="password"[^>]*name="password"/,
    );
    expect(html).not.toContain('<script');
  });

  it('shows one error for a wrong password and does not let the browser through', async () => {
    const { browser, form } = await signInPage();
    const res = await browser.request(form.action, {
      method: 'POST',
      form: { username: 'admin', password: 'wrong', tenant_code: '' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('Wrong username or password.');
    const unknown = await browser.request(form.action, {
      method: 'POST',
      form: { username: 'nobody-here', password: 'wrong', tenant_code: '' },
    });
    expect(await unknown.text()).toContain('Wrong username or password.');
  });

  it('shares the sign-in throttle of POST /api/v1/login: an account it holds back is refused here unchecked', async () => {
    const username = `throttled_${Date.now().toString(36)}`;
    const password = 'Lantern-Harbor-Quay-58';
    const admin = await platform.adminToken();
    const created = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username, password },
    });
    expect(created.status).toBe(200);
    // LOGIN_BACKOFF_AFTER (5) failures, then the one attempt the first waiting period admits,
    // through the API: the account now waits (LOGIN_BACKOFF_BASE, an hour here)...
    for (let i = 0; i < 6; i++) {
      const res = await platform.call('POST', '/api/v1/login', {
        body: { username, password: `wrong-${i}` },
      });
      expect(res.status).toBe(401);
    }
    // ...so the sign-in page refuses even the right password, without checking it.
    const { browser, form } = await signInPage();
    const res = await browser.request(form.action, {
      method: 'POST',
      form: { username, password, tenant_code: '' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('Too many failed attempts. Try again later.');
  });

  it('escapes what it shows back', async () => {
    const { browser, form } = await signInPage();
    const res = await browser.request(form.action, {
      method: 'POST',
      form: { username: '"><script>alert(1)</script>', password: 'x', tenant_code: '' },
    });
    const html = await res.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses a form posted from another origin', async () => {
    const { browser, form } = await signInPage();
    const res = await browser.request(form.action, {
      method: 'POST',
      form: { username: 'admin', password: 'admin123', tenant_code: '' },
      origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    // The consent and abort posts share the check.
    expect(form.action).toMatch(/\/login$/);
    for (const path of ['confirm', 'abort']) {
      const other = await browser.request(form.action.replace(/\/login$/, `/${path}`), {
        method: 'POST',
        form: {},
        origin: 'https://evil.example',
      });
      expect(other.status).toBe(403);
    }
  });

  it('refuses a sign-in post without the browser’s interaction cookie', async () => {
    const { form } = await signInPage();
    const stranger = new Browser();
    const res = await stranger.request(form.action, {
      method: 'POST',
      form: { username: 'admin', password: 'admin123', tenant_code: '' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('returns access_denied to the client when the user denies consent', async () => {
    const { browser, form } = await signInPage();
    let res = await browser.request(form.action, {
      method: 'POST',
      form: { username: 'admin', password: 'admin123', tenant_code: '' },
    });
    let at = form.action;
    while (res.status >= 300 && res.status < 400) {
      at = new URL(res.headers.get('location')!, at).toString();
      res = await browser.request(at);
    }
    const html = await res.text();
    const deny = /<form[^>]*action="([^"]*\/abort)"/.exec(html)![1]!;
    res = await browser.request(new URL(deny, at).toString(), { method: 'POST', form: {} });
    while (res.status >= 300 && res.status < 400) {
      at = new URL(res.headers.get('location')!, at).toString();
      if (at.startsWith(REDIRECT_URI)) break;
      res = await browser.request(at);
    }
    const callback = new URL(at);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('works through the bare /oauth2 alias', async () => {
    const url = new URL(`${platform.url}/oauth2/authorize`);
    url.search = new URLSearchParams({
      client_id: config.clientMetadata().client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: REDIRECT_URI,
      code_challenge: await oidc.calculatePKCECodeChallenge('v'.repeat(43)),
      code_challenge_method: 'S256',
      state: 's1',
    }).toString();
    const callback = await authorizeInBrowser(url, REDIRECT_URI, {
      username: 'admin',
      password: 'admin123',
    });
    expect(callback.searchParams.get('state')).toBe('s1');
    expect(callback.searchParams.get('code')).toBeTruthy();
    const jwks = await fetch(`${platform.url}/oauth2/jwks`);
    expect(jwks.status).toBe(200);
    expect(await jwks.json()).toEqual(await (await fetch(`${issuerOf(platform)}/jwks`)).json());
  });
});

const PASSWORD = 'Orchard-Violet-Kettle-73';

/** A user who made the first sign-in's password change, and their id. */
async function createUser(options: { keepPasswordChange?: boolean } = {}) {
  const username = uniq('page');
  const created = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD },
  });
  expect(created.status).toBe(200);
  if (!options.keepPasswordChange) await platform.login(username, PASSWORD);
  return { username, id: created.body.data.id as number };
}

async function postSignIn(username: string, password = PASSWORD) {
  const { browser, form } = await signInPage();
  const res = await browser.request(form.action, {
    method: 'POST',
    form: { username, password, tenant_code: '' },
  });
  return { browser, form, res };
}

describe('the sign-in page runs the checks of POST /api/v1/login', () => {
  it('asks a TOTP user for the code on a step of its own; the ID token says pwd and otp', async () => {
    const { username } = await createUser();
    const secret = await enableTotp(
      platform,
      (await platform.login(username, PASSWORD)).access_token,
      PASSWORD,
    );

    const { browser, form, res } = await postSignIn(username);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    const step = formOf(await res.text(), form.action);
    expect(step.inputs).toEqual(['totp_code']);
    const wrong = await browser.request(step.action, {
      method: 'POST',
      form: { totp_code: '000000' },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.headers.get('location')).toBeNull();
    expect(await wrong.text()).toContain('The code is wrong.');
    await waitForEvent(
      platform,
      'auth.login.failed',
      (p) => p.username === username && p.reason === 'wrong_totp' && p.login_type === 'oidc',
    );

    const { tokens } = await codeFlow(config, {
      credentials: { username, password: PASSWORD, totpCode: () => totpCodeAt(secret) },
    });
    expect(tokens.claims()!.amr).toEqual(['pwd', 'otp']);
    const event = await waitForEvent(
      platform,
      'auth.login.success',
      (p) => p.username === username && p.login_type === 'oidc',
    );
    expect(event.success).toBe(true);
  });

  it('says pwd alone in the ID token of a password sign-in', async () => {
    const { tokens } = await codeFlow(config);
    expect(tokens.claims()!.amr).toEqual(['pwd']);
  });

  it('refuses a user who must change the password, with a link to the console', async () => {
    const { username } = await createUser({ keepPasswordChange: true });
    const { res } = await postSignIn(username);
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('Password change required');
    expect(html).toContain(`href="${platform.url}/password"`);
    await waitForEvent(
      platform,
      'auth.login.failed',
      (p) =>
        p.username === username &&
        p.reason === 'password_change_required' &&
        p.login_type === 'oidc',
    );
  });

  it('refuses a disabled user with the wrong-credentials page and keeps the attempt counted', async () => {
    const { username, id } = await createUser();
    const disabled = await platform.call('PUT', `/api/v1/users/${id}`, {
      token: await platform.adminToken(),
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    const { res } = await postSignIn(username);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('Wrong username or password.');
    // Counted as a failure of the account, not cleared as a success.
    expect(await platform.kernel.cache.get(`auth:fail:user:t:1:${username}`)).toBe('1');
    await waitForEvent(
      platform,
      'auth.login.failed',
      (p) => p.username === username && p.reason === 'user_disabled' && p.login_type === 'oidc',
    );
  });
});

describe('the sign-in page with LOGIN_CAPTCHA=after_failures', () => {
  let own: TestPlatform;
  let ownConfig: oidc.Configuration;
  beforeAll(async () => {
    own = await startTestPlatform({ LOGIN_CAPTCHA: 'after_failures' });
    const client = await registerClient(own, {
      public: true,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
    });
    ownConfig = await clientConfig(own, client);
  }, 60_000);
  afterAll(() => own?.close());

  it('asks for the captcha after failures as /login does, and lets a right answer through', async () => {
    for (let i = 0; i < 3; i++) {
      const failed = await own.call('POST', '/api/v1/login', {
        body: { username: 'admin', password: `Wrong-Guess-${i}` },
      });
      expect(failed.body.code).toBe(40103);
    }
    const { browser, form } = await signInPage(ownConfig);
    const asked = await browser.request(form.action, {
      method: 'POST',
      form: { username: 'admin', password: 'admin123', tenant_code: '' },
    });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('location')).toBeNull();
    const html = await asked.text();
    expect(html).toContain('Enter the characters in the picture.');
    expect(html).toMatch(/<img src="data:image\/svg\+xml;base64,/);
    expect(formOf(html, form.action).inputs).toEqual([
      'username',
      'password',
      'tenant_code',
      'captcha_id',
      'captcha',
    ]);
    const id = /name="captcha_id" value="([^"]+)"/.exec(html)![1]!;
    const answer = await own.kernel.cache.get(`auth:captcha:${id}`);
    const right = await browser.request(form.action, {
      method: 'POST',
      form: { username: 'admin', password: 'admin123', captcha_id: id, captcha: answer! },
    });
    expect(right.status).toBe(303);
  });
});
