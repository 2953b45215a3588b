import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

const PASSWORD = 'Session-User-Pass-3';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

async function newUser(tenantToken?: string, tenantCode?: string) {
  const username = uniq('sess');
  const res = await platform.call('POST', '/api/v1/users', {
    token: tenantToken ?? (await platform.adminToken()),
    body: { username, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  // Created by an administrator: the first sign-in changes the password (and back, by the
  // helper); that session is signed out so the lists below hold only the test's own sessions.
  const first = await platform.login(username, PASSWORD, tenantCode);
  const out = await platform.call('POST', '/api/v1/logout', {
    token: first.access_token,
    body: {},
  });
  expect(out.status).toBe(200);
  return { username, id: res.body.data.id as number };
}

async function signIn(username: string, userAgent: string, deviceId: string) {
  const res = await platform.call('POST', '/api/v1/login', {
    body: { username, password: PASSWORD },
    headers: { 'user-agent': userAgent, 'x-device-id': deviceId },
  });
  expect(res.status).toBe(200);
  return res.body.data as { access_token: string; refresh_token: string };
}

describe('sessions people can see', () => {
  it('lists the caller’s sessions with device, browser and IP, the current one marked', async () => {
    const user = await newUser();
    const laptop = await signIn(user.username, FIREFOX, 'dev-laptop');
    await signIn(user.username, 'curl/8.5.0', 'dev-script');
    const res = await platform.call('GET', '/api/v1/me/sessions', { token: laptop.access_token });
    expect(res.status).toBe(200);
    const list = res.body.data as Array<Record<string, any>>;
    expect(list).toHaveLength(2);
    const current = list.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({
      device_id: 'dev-laptop',
      browser: 'Firefox 128',
      os: 'Linux',
      ip: '127.0.0.1',
    });
    expect(Date.parse(current[0]!.created_at)).toBeGreaterThan(0);
    expect(Date.parse(current[0]!.last_used_at)).toBeGreaterThanOrEqual(
      Date.parse(current[0]!.created_at),
    );
  });

  it('signs one session out, which then stops working; another user’s session is 404', async () => {
    const user = await newUser();
    const a = await signIn(user.username, FIREFOX, 'a');
    const b = await signIn(user.username, FIREFOX, 'b');
    const list = (await platform.call('GET', '/api/v1/me/sessions', { token: a.access_token })).body
      .data as Array<{ id: number; current: boolean }>;
    const other = list.find((s) => !s.current)!;
    const del = await platform.call('DELETE', `/api/v1/me/sessions/${other.id}`, {
      token: a.access_token,
    });
    expect(del.status).toBe(200);
    expect((await platform.call('GET', '/api/v1/me', { token: b.access_token })).status).toBe(401);
    expect(
      (await platform.call('POST', '/api/v1/refresh', { body: { refresh_token: b.refresh_token } }))
        .status,
    ).toBe(401);
    expect((await platform.call('GET', '/api/v1/me', { token: a.access_token })).status).toBe(200);

    const stranger = await newUser();
    const s = await signIn(stranger.username, FIREFOX, 's');
    const current = (await platform.call('GET', '/api/v1/me/sessions', { token: a.access_token }))
      .body.data[0].id as number;
    expect(
      (await platform.call('DELETE', `/api/v1/me/sessions/${current}`, { token: s.access_token }))
        .status,
    ).toBe(404);
    expect((await platform.call('GET', '/api/v1/me', { token: a.access_token })).status).toBe(200);
  });

  it('lets a tenant admin list and end a user’s sessions, never another tenant’s', async () => {
    const user = await newUser();
    const session = await signIn(user.username, FIREFOX, 'x');
    const admin = await platform.adminToken();
    const list = await platform.call('GET', `/api/v1/sessions?user_id=${user.id}`, {
      token: admin,
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const id = list.body.data[0].id as number;

    const tenant = uniq('t');
    await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: {
        code: tenant,
        name: tenant,
        admin_username: 'boss',
        admin_password: 'Str0ng-Pass-4-Tests',
      },
    });
    const boss = await platform.login('boss', 'Str0ng-Pass-4-Tests', tenant);
    const foreignList = await platform.call('GET', `/api/v1/sessions?user_id=${user.id}`, {
      token: boss.access_token,
    });
    expect(foreignList.body.data).toEqual([]);
    expect(
      (await platform.call('DELETE', `/api/v1/sessions/${id}`, { token: boss.access_token }))
        .status,
    ).toBe(404);
    expect((await platform.call('GET', '/api/v1/me', { token: session.access_token })).status).toBe(
      200,
    );

    expect((await platform.call('DELETE', `/api/v1/sessions/${id}`, { token: admin })).status).toBe(
      200,
    );
    expect((await platform.call('GET', '/api/v1/me', { token: session.access_token })).status).toBe(
      401,
    );
  });

  it('refuses the admin endpoints without the user permissions', async () => {
    const user = await newUser();
    const own = await signIn(user.username, FIREFOX, 'p');
    const res = await platform.call('GET', `/api/v1/sessions?user_id=${user.id}`, {
      token: own.access_token,
    });
    expect(res.status).toBe(403);
  });
});
