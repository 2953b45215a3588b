import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { waitForEvent } from '../helpers/events.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { advanceTimeStep } from '../../src/services/auth/totp/totp.repo.js';
import type { TotpDb } from '../../src/services/auth/totp/totp.tables.js';

// Changing the second factor takes the password, wrong codes are counted per account, a change
// signs the other sessions out, and a code or recovery code signs in only once, as its own user.

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

const PASSWORD = 'Totp-Rules-Pass-9';
const totpDb = () => platform.kernel.database.db.withTables<Record<string, never>>() as TotpDb;
const codeAt = (secret: string, offset: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

const post = (path: string, token: string, body: Record<string, unknown>) =>
  platform.call('POST', `/api/v1/me/totp/${path}`, { token, body });

async function signedInUser() {
  const username = uniq('totp');
  const created = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD },
  });
  expect(created.status).toBe(200);
  const { access_token: token } = await platform.login(username, PASSWORD);
  return { id: created.body.data.id as number, username, token };
}

/** A user with TOTP on (confirmed with the previous period's code, so the current one is free). */
async function enrolledUser() {
  const user = await signedInUser();
  const enrol = await post('enroll', user.token, { password: PASSWORD });
  expect(enrol.status).toBe(200);
  const secret = enrol.body.data.secret as string;
  const confirmWithPrevious = async () =>
    post('confirm', user.token, { code: await codeAt(secret, -1), password: PASSWORD });
  let confirm = await confirmWithPrevious();
  // A period can end between computing the code and the server checking it (a busy machine, the
  // 200-round matrix): the code is then two periods old, past the tolerance. Once more, fresh.
  if (confirm.status === 400) confirm = await confirmWithPrevious();
  expect(confirm.status).toBe(200);
  return { ...user, secret, recovery: confirm.body.data.recovery_codes as string[] };
}

const login = (username: string, totp_code: string) =>
  platform.call('POST', '/api/v1/login', { body: { username, password: PASSWORD, totp_code } });

const isOn = async (token: string) =>
  (await platform.call('GET', '/api/v1/me/totp', { token })).body.data.enabled as boolean;

describe('changing the second factor', () => {
  it('refuses the sixth code to disable within the window with 429, even a right one', async () => {
    const user = await enrolledUser();
    for (let i = 0; i < 5; i++) {
      const wrong = await post('disable', user.token, { code: '000000', password: PASSWORD });
      expect([wrong.status, wrong.body.code]).toEqual([400, 40001]);
    }
    const limited = await post('disable', user.token, {
      code: await codeAt(user.secret, 0),
      password: PASSWORD,
    });
    expect([limited.status, limited.body.code]).toEqual([429, 42900]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await isOn(user.token)).toBe(true);
  });

  it('takes the current password to enrol, confirm and disable', async () => {
    const user = await signedInUser();
    const noPassword = await platform.call('POST', '/api/v1/me/totp/enroll', {
      token: user.token,
      body: {},
    });
    expect([noPassword.status, noPassword.body.code]).toEqual([400, 40001]);
    const wrongEnrol = await post('enroll', user.token, { password: 'Not-The-Password-1' });
    expect(wrongEnrol.status).toBe(400);
    expect(wrongEnrol.body.data.fields).toEqual([expect.objectContaining({ field: 'password' })]);
    const enrol = await post('enroll', user.token, { password: PASSWORD });
    const secret = enrol.body.data.secret as string;
    const wrongConfirm = await post('confirm', user.token, {
      code: await codeAt(secret, 0),
      password: 'Not-The-Password-1',
    });
    expect(wrongConfirm.body.data.fields).toEqual([expect.objectContaining({ field: 'password' })]);
    expect(await isOn(user.token)).toBe(false);
    const confirm = await post('confirm', user.token, {
      code: await codeAt(secret, 0),
      password: PASSWORD,
    });
    expect(confirm.status).toBe(200);
    const recovery = confirm.body.data.recovery_codes as string[];
    const wrongDisable = await post('disable', user.token, {
      code: recovery[0],
      password: 'Not-The-Password-1',
    });
    expect(wrongDisable.body.data.fields).toEqual([expect.objectContaining({ field: 'password' })]);
    expect(await isOn(user.token)).toBe(true);
    // A wrong password counts like a failed sign-in.
    const failed = await waitForEvent(
      platform,
      'auth.login.failed',
      (p) => p.username === user.username && p.reason === 'wrong_password_totp',
    );
    expect(failed.success).toBe(false);
  });

  it('signs the other sessions out when TOTP goes on and when it goes off; this one stays', async () => {
    const user = await signedInUser();
    const other = await platform.login(user.username, PASSWORD);
    const enrol = await post('enroll', user.token, { password: PASSWORD });
    const secret = enrol.body.data.secret as string;
    const confirm = await post('confirm', user.token, {
      code: await codeAt(secret, -1),
      password: PASSWORD,
    });
    expect(confirm.status).toBe(200);
    const me = (token: string) => platform.call('GET', '/api/v1/me', { token });
    expect((await me(other.access_token)).status).toBe(401);
    expect((await me(user.token)).status).toBe(200);

    const third = await login(user.username, await codeAt(secret, 0));
    expect(third.status).toBe(200);
    const off = await post('disable', user.token, {
      code: confirm.body.data.recovery_codes[0],
      password: PASSWORD,
    });
    expect(off.status).toBe(200);
    expect((await me(third.body.data.access_token)).status).toBe(401);
    expect((await me(user.token)).status).toBe(200);
  });
});

describe('signing in with a second factor', () => {
  it('accepts a recovery code only for its own user', async () => {
    const owner = await enrolledUser();
    const other = await enrolledUser();
    const borrowed = await login(other.username, owner.recovery[0]!);
    expect([borrowed.status, borrowed.body.code]).toEqual([401, 40103]);
    // Still unused by its owner.
    expect((await login(owner.username, owner.recovery[0]!)).status).toBe(200);
  });

  raceIt('accepts one code once when two sign-ins race with it', async () => {
    const user = await enrolledUser();
    const code = await codeAt(user.secret, 0);
    // On PostgreSQL both sign-ins pass the step check, then wait on the row lock of the
    // conditional update that records the step; PGlite runs them in turn.
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT 1 FROM auth_totp WHERE user_id = $1 FOR UPDATE',
      [user.id],
      () => Promise.all([login(user.username, code), login(user.username, code)]),
      2,
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('records a time step once: of two updates with one step, only the first wins', async () => {
    const user = await enrolledUser();
    const step = Math.floor(Date.now() / 1000 / 30) + 1;
    const both = await Promise.all([
      advanceTimeStep(totpDb(), user.id, step),
      advanceTimeStep(totpDb(), user.id, step),
    ]);
    expect(both.sort()).toEqual([false, true]);
    expect(await advanceTimeStep(totpDb(), user.id, step - 1)).toBe(false);
    expect(await advanceTimeStep(totpDb(), user.id, step + 1)).toBe(true);
  });
});
