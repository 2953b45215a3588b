import { sql } from 'kysely';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForEvent } from '../helpers/events.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

const PASSWORD = 'Totp-User-Pass-9';
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The code of the period `offset` periods from now (tolerance is one period either side). */
const codeAt = (secret: string, offset: number) =>
  generate({ secret, epoch: nowSeconds() + offset * 30 });

async function enrolledUser() {
  const username = uniq('totp');
  const created = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD },
  });
  expect(created.status).toBe(200);
  const { access_token: token } = await platform.login(username, PASSWORD);
  const enrol = await platform.call('POST', '/api/v1/me/totp/enroll', {
    token,
    body: { password: PASSWORD },
  });
  expect(enrol.status).toBe(200);
  const { secret, otpauth_uri: uri } = enrol.body.data as { secret: string; otpauth_uri: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\/Approva:/);
  expect(new URL(uri).searchParams.get('secret')).toBe(secret);
  // The previous period's code, so later tests may use the current and next ones. On a loaded
  // machine the call (an argon2 check first) can outlast a period boundary, which makes that
  // code two periods old: only then is it asked again, with a fresh code.
  const period = () => Math.floor(nowSeconds() / 30);
  let confirm;
  for (let attempt = 0; ; attempt++) {
    const before = period();
    confirm = await platform.call('POST', '/api/v1/me/totp/confirm', {
      token,
      body: { code: await codeAt(secret, -1), password: PASSWORD },
    });
    if (confirm.status === 200 || period() === before || attempt === 2) break;
  }
  expect(confirm.status).toBe(200);
  const recovery = confirm.body.data.recovery_codes as string[];
  return { username, secret, recovery, token };
}

const login = (username: string, totp_code?: string) =>
  platform.call('POST', '/api/v1/login', {
    body: { username, password: PASSWORD, ...(totp_code !== undefined ? { totp_code } : {}) },
  });

describe('TOTP second factor', () => {
  it('does not turn on before a first valid code', async () => {
    const username = uniq('totp');
    await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password: PASSWORD },
    });
    const { access_token: token } = await platform.login(username, PASSWORD);
    await platform.call('POST', '/api/v1/me/totp/enroll', { token, body: { password: PASSWORD } });
    const wrong = await platform.call('POST', '/api/v1/me/totp/confirm', {
      token,
      body: { code: '000000', password: PASSWORD },
    });
    expect(wrong.status).toBe(400);
    expect((await platform.call('GET', '/api/v1/me/totp', { token })).body.data).toEqual({
      enabled: false,
    });
    expect((await login(username)).status).toBe(200);
  });

  it('asks a user with TOTP for the code, accepts it once, and logs the login as totp', async () => {
    const user = await enrolledUser();
    expect(
      (await platform.call('GET', '/api/v1/me/totp', { token: user.token })).body.data,
    ).toEqual({
      enabled: true,
    });
    const missing = await login(user.username);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.data)).toContain('totp_code');

    const wrong = await login(user.username, '123456');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe(40103);

    const code = await codeAt(user.secret, 0);
    const ok = await login(user.username, code);
    expect(ok.status).toBe(200);
    expect(ok.body.data.access_token).toBeTruthy();
    const replay = await login(user.username, code);
    expect(replay.status).toBe(401);

    const event = await waitForEvent(
      platform,
      'auth.login.success',
      (p) => p.username === user.username && p.login_type === 'totp',
    );
    expect(event.success).toBe(true);
    const failed = await waitForEvent(
      platform,
      'auth.login.failed',
      (p) => p.username === user.username && p.reason === 'wrong_totp',
    );
    expect(failed.success).toBe(false);
  });

  it('accepts each recovery code once and stores them hashed', async () => {
    const user = await enrolledUser();
    expect(user.recovery).toHaveLength(10);
    const rows = await sql<{ code_hash: string }>`
      SELECT code_hash FROM auth_totp_recovery_codes`.execute(platform.kernel.database.db);
    expect(JSON.stringify(rows.rows)).not.toContain(user.recovery[0]);
    expect((await login(user.username, user.recovery[0])).status).toBe(200);
    expect((await login(user.username, user.recovery[0])).status).toBe(401);
    expect((await login(user.username, user.recovery[1]!.toUpperCase())).status).toBe(200);
  });

  it('stores the secret encrypted', async () => {
    const user = await enrolledUser();
    const rows = await sql<{ secret_encrypted: string }>`
      SELECT secret_encrypted FROM auth_totp`.execute(platform.kernel.database.db);
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows.rows)).not.toContain(user.secret);
  });

  it('turns off only with a valid code, and then the password alone signs in', async () => {
    const user = await enrolledUser();
    const refused = await platform.call('POST', '/api/v1/me/totp/disable', {
      token: user.token,
      body: { code: '999999', password: PASSWORD },
    });
    expect(refused.status).toBe(400);
    expect((await login(user.username)).status).toBe(400);
    const off = await platform.call('POST', '/api/v1/me/totp/disable', {
      token: user.token,
      body: { code: user.recovery[2], password: PASSWORD },
    });
    expect(off.status).toBe(200);
    expect((await login(user.username)).status).toBe(200);
  });

  it('refuses a second enrolment while TOTP is on', async () => {
    const user = await enrolledUser();
    const again = await platform.call('POST', '/api/v1/me/totp/enroll', {
      token: user.token,
      body: { password: PASSWORD },
    });
    expect(again.status).toBe(409);
    expect((await login(user.username, user.recovery[0])).status).toBe(200);
  });
});
