import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import {
  smtpSettings,
  startSmtpSink,
  waitForMail,
  type Received,
  type SmtpSink,
} from '../helpers/smtp-sink.js';

let sink: SmtpSink;
let platform: TestPlatform;
beforeAll(async () => {
  sink = await startSmtpSink();
  platform = await startTestPlatform({
    ...smtpSettings(sink),
    PASSWORD_RESET_URL: 'https://console.example.test/reset',
    // Every request of this file comes from 127.0.0.1; the limit has its own test below.
    PASSWORD_FORGOT_PER_IP: '1000',
    PASSWORD_RESET_PER_IP: '1000',
  });
}, 60_000);
afterAll(async () => {
  await platform?.close();
  await sink?.close();
});

const PASSWORD = 'Initial-Pass-42';

async function createUser() {
  const username = uniq('reset');
  const email = `${username}@mail.example.test`;
  const res = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD, email },
  });
  expect(res.status).toBe(200);
  return { username, email };
}

const mailTo = (email: string, after = 0) => waitForMail(sink, email, after);

/** The token of the reset link in a mail (quoted-printable soft breaks undone). */
function tokenOf(mail: Received): string {
  const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https:\/\/console\.example\.test\/reset\?token=([A-Za-z0-9_-]+)/.exec(body);
  if (!match) throw new Error(`no reset link in ${body}`);
  return match[1]!;
}

const forgot = (body: Record<string, unknown>) =>
  platform.call('POST', '/api/v1/password/forgot', { body });
const reset = (token: string, newPassword: string) =>
  platform.call('POST', '/api/v1/password/reset', { body: { token, new_password: newPassword } });

describe('password reset', () => {
  it('mails a link, sets the new password once, and signs every session out', async () => {
    const user = await createUser();
    const session = await platform.login(user.username, PASSWORD);
    const before = sink.inbox.length;
    const res = await forgot({ username_or_email: user.username });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 200, message: 'success', data: null });
    const mail = await mailTo(user.email, before);
    expect(mail.raw).toContain('From: approva@test.example');
    const token = tokenOf(mail);

    const stored = await sql<{ token_hash: string }>`
      SELECT token_hash FROM auth_password_resets`.execute(platform.kernel.database.db);
    const hashes = stored.rows.map((r) => r.token_hash);
    expect(hashes).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    expect((await reset(token, 'Brand-New-Pass-77')).status).toBe(200);
    expect((await platform.call('GET', '/api/v1/me', { token: session.access_token })).status).toBe(
      401,
    );
    const refreshed = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    await expect(platform.login(user.username, PASSWORD)).rejects.toThrow(/401/);
    const fresh = await platform.login(user.username, 'Brand-New-Pass-77');
    expect(fresh.access_token).toBeTruthy();

    const replay = await reset(token, 'Another-Pass-88');
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe(40001);
    expect(await platform.login(user.username, 'Brand-New-Pass-77')).toBeTruthy();
  });

  it('finds the account by e-mail too', async () => {
    const user = await createUser();
    const before = sink.inbox.length;
    await forgot({ username_or_email: user.email.toUpperCase() });
    expect(tokenOf(await mailTo(user.email, before))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers an unknown account exactly like a known one and sends nothing', async () => {
    const known = await createUser();
    const before = sink.inbox.length;
    const a = await forgot({ username_or_email: known.username });
    const b = await forgot({ username_or_email: uniq('nobody') });
    const c = await forgot({ username_or_email: known.username, tenant_code: uniq('nope') });
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    await mailTo(known.email, before);
    // Whatever else arrives, nothing is addressed to an unknown account.
    expect(sink.inbox.slice(before).every((m) => m.to.every((t) => t === known.email))).toBe(true);
  });

  it('refuses an expired token', async () => {
    const user = await createUser();
    const before = sink.inbox.length;
    await forgot({ username_or_email: user.username });
    const token = tokenOf(await mailTo(user.email, before));
    await sql`UPDATE auth_password_resets SET expires_at = now() - interval '1 second'
      WHERE token_hash = ${createHash('sha256').update(token).digest('hex')}`.execute(
      platform.kernel.database.db,
    );
    expect((await reset(token, 'Brand-New-Pass-77')).status).toBe(400);
    expect((await platform.login(user.username, PASSWORD)).access_token).toBeTruthy();
  });

  it('refuses a weak new password and keeps the token usable', async () => {
    const user = await createUser();
    const before = sink.inbox.length;
    await forgot({ username_or_email: user.username });
    const token = tokenOf(await mailTo(user.email, before));
    const weak = await reset(token, 'password123');
    expect(weak.status).toBe(400);
    expect(JSON.stringify(weak.body.data)).toContain('new_password');
    expect((await reset(token, 'Brand-New-Pass-77')).status).toBe(200);
  });

  raceIt(
    'lets exactly one of two concurrent submits of one token win (RELIABILITY 24)',
    async () => {
      const user = await createUser();
      const before = sink.inbox.length;
      await forgot({ username_or_email: user.username });
      const token = tokenOf(await mailTo(user.email, before));
      const results = await raceOnRowLock(
        platform.settings.database.url,
        'SELECT 1 FROM auth_password_resets WHERE token_hash = $1 FOR UPDATE',
        [createHash('sha256').update(token).digest('hex')],
        () => Promise.all([reset(token, 'Winner-Pass-One-1'), reset(token, 'Winner-Pass-Two-2')]),
        2,
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    },
  );

  it('consumes the user’s other open reset links when one is used', async () => {
    const user = await createUser();
    let before = sink.inbox.length;
    await forgot({ username_or_email: user.username });
    const first = tokenOf(await mailTo(user.email, before));
    before = sink.inbox.length;
    await forgot({ username_or_email: user.username });
    const second = tokenOf(await mailTo(user.email, before));
    expect(second).not.toBe(first);
    expect((await reset(second, 'Brand-New-Pass-77')).status).toBe(200);
    const stale = await reset(first, 'Another-Pass-88');
    expect(stale.status).toBe(400);
    expect(stale.body.data.fields[0]).toMatchObject({ field: 'token' });
    expect((await platform.login(user.username, 'Brand-New-Pass-77')).access_token).toBeTruthy();
  });

  it('refuses a made-up token', async () => {
    const res = await reset('not-a-real-token', 'Brand-New-Pass-77');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
  });
});

describe('password reset limits', () => {
  it('limits /password/forgot per IP (5 in 15 minutes by default)', async () => {
    const own = await startTestPlatform();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (await own.call('POST', '/password/forgot', { body: { username_or_email: uniq('x') } }))
            .status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('limits /password/reset per IP (10 in 15 minutes by default)', async () => {
    const own = await startTestPlatform();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const body = { token: uniq('made-up'), new_password: 'Brand-New-Pass-77' };
        statuses.push((await own.call('POST', '/password/reset', { body })).status);
      }
      expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('looks a token up before hashing: made-up tokens never take a password slot', async () => {
    // One slot and no queue: a second hash while one runs would be refused with 429.
    const own = await startTestPlatform({
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE: '0',
      PASSWORD_RESET_PER_IP: '1000',
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          own.call('POST', '/api/v1/password/reset', {
            body: { token: uniq('made-up'), new_password: 'Brand-New-Pass-77' },
          }),
        ),
      );
      expect(answers.map((a) => a.body.code)).toEqual(Array<number>(12).fill(40001));
    } finally {
      await own.close();
    }
  }, 60_000);
});
