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
