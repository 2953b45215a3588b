import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
let admin: string;
const db = () => platform.kernel.database.db;
const PASSWORD = 'Str0ng-Passw0rd!';

beforeAll(async () => {
  platform = await startTestPlatform({ SESSION_MAX_AGE: '2h' });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

/** A user created by the admin, signed in (first password change done): token and refresh token. */
async function signedInUser() {
  const username = uniq('user');
  const created = await platform.call('POST', '/api/v1/users', {
    token: admin,
    body: { username, password: PASSWORD },
  });
  expect(created.status).toBe(200);
  const session = await platform.login(username, PASSWORD);
  return { id: created.body.data.id as number, username, ...session };
}

async function expectSignedOut(session: { access_token: string; refresh_token: string }) {
  const me = await platform.call('GET', '/api/v1/me', { token: session.access_token });
  expect(me.status).toBe(401);
  expect(me.body.code).toBe(40100);
  const refresh = await platform.call('POST', '/api/v1/refresh', {
    body: { refresh_token: session.refresh_token },
  });
  expect(refresh.status).toBe(401);
  expect(refresh.body.code).toBe(40102);
}

describe('an administrator ends a user’s sessions', () => {
  it('by setting the password: tokens stop working, and the new one must be changed', async () => {
    const user = await signedInUser();
    const other = await platform.login(user.username, PASSWORD);
    const reset = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { password: 'Reset-By-Admin-2026' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.data.must_change_password).toBe(true);
    await expectSignedOut(user);
    await expectSignedOut(other);
    const next = await platform.login(user.username, 'Reset-By-Admin-2026', undefined, {
      keepPasswordChange: true,
    });
    expect(next.user.must_change_password).toBe(true);
    const blocked = await platform.call('GET', '/api/v1/login-logs/my', {
      token: next.access_token,
    });
    expect(blocked.body.code).toBe(40302);
  });

  it('by disabling the user, and re-enabling does not bring the old sessions back', async () => {
    const user = await signedInUser();
    for (const status of ['disabled', 'active']) {
      const res = await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { status },
      });
      expect(res.status).toBe(200);
    }
    await expectSignedOut(user);
    expect((await platform.login(user.username, PASSWORD)).access_token).toBeTruthy();
  });

  it('by deleting the user: sessions and refresh tokens go with the account', async () => {
    const user = await signedInUser();
    const del = await platform.call('DELETE', `/api/v1/users/${user.id}`, { token: admin });
    expect(del.status).toBe(200);
    await expectSignedOut(user);
    const rows = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM auth_sessions WHERE user_id = ${user.id}`.execute(db());
    expect(rows.rows[0]!.n).toBe(0);
  });

  it('but leaves other users signed in', async () => {
    const victim = await signedInUser();
    const bystander = await signedInUser();
    await platform.call('PUT', `/api/v1/users/${victim.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    const me = await platform.call('GET', '/api/v1/me', { token: bystander.access_token });
    expect(me.status).toBe(200);
  });

  it('ends a session that signed in with the old password while the reset ran', async () => {
    const user = await signedInUser();
    // The sign-in read session version 1 with the old hash; the reset bumps it to 2 before the
    // session row is written: this is the state that race leaves behind.
    await sql`UPDATE iam_users SET session_version = session_version + 1 WHERE id = ${user.id}`.execute(
      db(),
    );
    await platform.kernel.cache.del(`iam:user:${user.id}`);
    await expectSignedOut(user);
  });
});

describe('a session family', () => {
  it('has random, unrelated ids', async () => {
    const first = await platform.login('admin', 'admin123');
    const second = await platform.login('admin', 'admin123');
    const [a, b] = [first, second].map((s) => decodeJwt(s.access_token).sid as number);
    expect(Number.isSafeInteger(a) && Number.isSafeInteger(b)).toBe(true);
    expect(Math.abs(a! - b!)).toBeGreaterThan(1000);
    expect(Math.min(a!, b!)).toBeGreaterThan(2 ** 20);
  });

  it('ends at SESSION_MAX_AGE: tokens are capped, refresh cannot extend it', async () => {
    const session = await platform.login('admin', 'admin123');
    const sid = decodeJwt(session.access_token).sid as number;
    const { rows } = await sql<{ seconds: number }>`
      SELECT extract(epoch FROM expires_at - created_at)::int AS seconds
      FROM auth_sessions WHERE id = ${sid}`.execute(db());
    expect(rows[0]!.seconds).toBe(2 * 3600);
    // REFRESH_TOKEN_TTL is 7 days, but the session ends in 2 hours.
    const login = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123' },
    });
    expect(login.body.data.refresh_expires_in).toBeLessThanOrEqual(2 * 3600);
    expect(login.body.data.refresh_expires_in).toBeGreaterThan(2 * 3600 - 60);

    // Ten seconds before the end, a refresh issues tokens that end with the session.
    await sql`UPDATE auth_sessions SET expires_at = now() + interval '10 seconds'
      WHERE id = ${sid}`.execute(db());
    const refreshed = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.refresh_expires_in).toBeLessThanOrEqual(10);
    expect(refreshed.body.data.expires_in).toBeLessThanOrEqual(10);
    const exp = decodeJwt(refreshed.body.data.access_token).exp!;
    expect(exp * 1000).toBeLessThanOrEqual(Date.now() + 10_000);

    // Past the end, refresh is refused.
    await sql`UPDATE auth_sessions SET expires_at = now() - interval '1 second'
      WHERE id = ${sid}`.execute(db());
    const late = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: refreshed.body.data.refresh_token },
    });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe(40102);
  });
});
