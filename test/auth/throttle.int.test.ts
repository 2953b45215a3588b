import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPlatform,
  uniq,
  type ApiResponse,
  type TestPlatform,
} from '../helpers/platform.js';

const PASSWORD = 'Str0ng-Passw0rd!';

async function createUser(platform: TestPlatform) {
  const username = uniq('user');
  const res = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  // The first sign-in's password change, so later sign-ins are plain.
  await platform.login(username, PASSWORD);
  return username;
}

const login = (platform: TestPlatform, username: string, password: string) =>
  platform.call('POST', '/api/v1/login', { body: { username, password } });

function throttled(res: ApiResponse) {
  expect(res.status, res.text).toBe(429);
  expect(res.body.code).toBe(42900);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(res.body.data.retry_after_seconds).toBe(retryAfter);
}

describe('per-account backoff', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ LOGIN_BACKOFF_AFTER: '3', LOGIN_BACKOFF_BASE: '60s' });
  });
  afterAll(() => platform?.close());

  it('makes an account wait after repeated failures, even for the right password', async () => {
    const username = await createUser(platform);
    for (let i = 0; i < 4; i++) {
      expect((await login(platform, username, 'Wrong-Guess-42')).body.code).toBe(40103);
    }
    const right = await login(platform, username, PASSWORD);
    throttled(right);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(50);
    // Another account is not held up.
    expect((await login(platform, 'admin', 'admin123')).status).toBe(200);
  });

  it('counts every attempt before checking it: of a parallel burst only the free ones are checked', async () => {
    const username = await createUser(platform);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => login(platform, username, 'Wrong-Guess-42')),
    );
    const checked = results.filter((r) => r.body.code === 40103);
    const refused = results.filter((r) => r.status === 429);
    // Three free attempts and one turn of the first waiting period; the rest never reach argon2.
    expect(checked.length).toBe(4);
    expect(refused.length).toBe(8);
    for (const res of refused) throttled(res);
  });

  it('counts wrong old passwords on POST /api/v1/me/password like failed sign-ins', async () => {
    const username = await createUser(platform);
    const { access_token: token } = await platform.login(username, PASSWORD);
    for (let i = 0; i < 4; i++) {
      const res = await platform.call('POST', '/api/v1/me/password', {
        token,
        body: { old_password: `Wrong-Old-${i}-Passw0rd`, new_password: 'Brand-New-Passw0rd' },
      });
      expect(res.status).toBe(400);
      expect(res.body.data.fields[0]).toMatchObject({ field: 'old_password' });
    }
    throttled(
      await platform.call('POST', '/api/v1/me/password', {
        token,
        body: { old_password: PASSWORD, new_password: 'Brand-New-Passw0rd' },
      }),
    );
    // The same account's sign-in waits too.
    throttled(await login(platform, username, PASSWORD));
  });

  it('lets a success before the threshold clear the account', async () => {
    const username = await createUser(platform);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3; i++) {
        expect((await login(platform, username, 'Wrong-Guess-42')).body.code).toBe(40103);
      }
      expect((await login(platform, username, PASSWORD)).status).toBe(200);
    }
  });
});

describe('failures spread over many addresses (the gateway trusts one proxy hop)', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      GATEWAY_TRUST_PROXY: '1',
      LOGIN_BACKOFF_AFTER: '3',
      LOGIN_BACKOFF_BASE: '60s',
    });
  });
  afterAll(() => platform?.close());

  /** A sign-in from `address`, answering the captcha (read from the cache, as a person reads it) when asked. */
  async function loginFrom(address: string, username: string, password: string) {
    const headers = { 'x-forwarded-for': address };
    const first = await platform.call('POST', '/api/v1/login', {
      body: { username, password },
      headers,
    });
    if (first.body.data?.fields?.[0]?.field !== 'captcha') return { res: first, captcha: false };
    const { captcha_id } = (await platform.call('GET', '/api/v1/captcha', { headers })).body.data;
    const captcha = await platform.kernel.cache.get(`auth:captcha:${captcha_id}`);
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username, password, captcha_id, captcha },
      headers,
    });
    return { res, captcha: true };
  }

  it('does not lock the owner out: the captcha stands in, and only the guessing address waits', async () => {
    const username = await createUser(platform);
    for (let i = 1; i <= 8; i++) {
      const { res } = await loginFrom(`198.51.100.${i}`, username, 'Wrong-Guess-42');
      expect(res.body.code, res.text).toBe(40103);
    }
    // The owner, from their own address: asked for a captcha, then in.
    const owner = await loginFrom('203.0.113.5', username, PASSWORD);
    expect(owner.captcha).toBe(true);
    expect(owner.res.status, owner.res.text).toBe(200);

    // Failures from one address still hold that address back, whatever the password.
    for (let i = 0; i < 4; i++) {
      expect((await loginFrom('198.51.100.99', username, 'Wrong-Guess-42')).res.body.code).toBe(
        40103,
      );
    }
    throttled((await loginFrom('198.51.100.99', username, PASSWORD)).res);
    const again = await loginFrom('203.0.113.5', username, PASSWORD);
    expect(again.res.status, again.res.text).toBe(200);
  });
});

describe('per-IP limit', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ LOGIN_IP_MAX_FAILURES: '4' });
  });
  afterAll(() => platform?.close());

  it('refuses an address over its failures, and a success in between does not reset it', async () => {
    const username = await createUser(platform);
    for (let i = 0; i < 3; i++) {
      expect((await login(platform, uniq('ghost'), 'Wrong-Guess-42')).body.code).toBe(40103);
    }
    expect((await login(platform, username, PASSWORD)).status).toBe(200);
    expect((await login(platform, uniq('ghost'), 'Wrong-Guess-42')).body.code).toBe(40103);
    throttled(await login(platform, username, PASSWORD));
  });
});

describe('a flood of sign-ins', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE: '1',
    });
  });
  afterAll(() => platform?.close());

  it('queues password checks up to the bound, refuses the rest with 429 and stays responsive', async () => {
    const flood = Array.from({ length: 24 }, () =>
      login(platform, uniq('ghost'), 'Wrong-Guess-42'),
    );
    const answers = await Promise.all(flood);
    const codes = answers.map((res) => res.body.code as number);
    // Some were checked (the one answer of a failed sign-in), the ones past the queue refused.
    expect(codes).toContain(40103);
    expect(codes).toContain(42900);
    expect(codes.every((code) => code === 40103 || code === 42900)).toBe(true);
    const refused = answers.find((res) => res.body.code === 42900)!;
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/password checks/);
    // The flood is over: a sign-in is checked again, and the rest of the platform answered all along.
    expect((await login(platform, uniq('ghost'), 'Wrong-Guess-42')).body.code).toBe(40103);
    expect((await platform.call('GET', '/api/v1/health/ready')).status).toBe(200);
  });
});
