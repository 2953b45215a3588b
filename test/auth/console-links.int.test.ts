import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

// What the console needs from the server with its defaults: no external providers to offer,
// and a reset mail that links to the console's page rather than to the POST-only API path.
let platform: TestPlatform;
const lines: string[] = [];
beforeAll(async () => {
  platform = await startTestPlatform(
    { LOG_LEVEL: 'info' },
    { logs: { write: (line: string) => void lines.push(line) } },
  );
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

describe('the console’s entry points on default settings', () => {
  it('lists no external sign-in provider while OAUTH_LOGIN_ENABLED is off', async () => {
    const res = await platform.call('GET', '/api/v1/login/oauth');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ providers: [] });
    // The provider routes themselves are not there.
    expect((await platform.call('GET', '/api/v1/login/oauth/github')).status).toBe(404);
  });

  it('links the reset mail to the console route /reset-password, which is not an API path', async () => {
    const username = uniq('link');
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password: 'Console-Link-Pass-8', email: `${username}@mail.example.test` },
    });
    expect(created.status).toBe(200);
    const forgot = await platform.call('POST', '/api/v1/password/forgot', {
      body: { username_or_email: username },
    });
    expect(forgot.status).toBe(200);

    const deadline = Date.now() + 10_000;
    let link: URL | undefined;
    while (!link && Date.now() < deadline) {
      const line = lines.find((l) => l.includes('password reset link') && l.includes(username));
      if (line) link = new URL((JSON.parse(line) as { link: string }).link);
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(link?.pathname).toBe('/reset-password');
    expect(link?.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    // The gateway hands that path to the console (or says the console is not built), never the
    // API's "no route" envelope the old default `/password/reset` answered to a GET.
    const page = await fetch(new URL(`${link!.pathname}${link!.search}`, platform.url));
    expect(await page.text()).not.toMatch(/no route for/);
    const old = await fetch(new URL(`/password/reset${link!.search}`, platform.url));
    expect(await old.text()).toMatch(/no route for/);
  });
});
