import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

/** Reads a captcha's answer from the platform's cache, as a person reads the image. */
async function solve(platform: TestPlatform) {
  const res = await platform.call('GET', '/api/v1/captcha');
  expect(res.status).toBe(200);
  const { captcha_id, image } = res.body.data;
  expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(Buffer.from(image.split(',')[1], 'base64').toString()).toMatch(/^<svg/);
  const answer = await platform.kernel.cache.get(`auth:captcha:${captcha_id}`);
  return { captcha_id: captcha_id as string, captcha: answer! };
}

describe('LOGIN_CAPTCHA=always', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ LOGIN_CAPTCHA: 'always' });
  });
  afterAll(() => platform?.close());

  it('requires a captcha on every login', async () => {
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({ field: 'captcha', rule: 'required' }),
    ]);
  });

  it('accepts the right answer, in any case, once', async () => {
    const solved = await solve(platform);
    const ok = await platform.call('POST', '/api/v1/login', {
      body: {
        username: 'admin',
        password: 'admin123',
        ...solved,
        captcha: solved.captcha.toUpperCase(),
      },
    });
    expect(ok.status).toBe(200);
    const replay = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123', ...solved },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.data.fields[0]).toMatchObject({ field: 'captcha', rule: 'format' });
  });

  it('refuses a wrong answer and burns the captcha', async () => {
    const solved = await solve(platform);
    const wrong = await platform.call('POST', '/api/v1/login', {
      body: {
        username: 'admin',
        password: 'admin123',
        captcha_id: solved.captcha_id,
        captcha: 'zzzz',
      },
    });
    expect(wrong.status).toBe(400);
    const retry = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123', ...solved },
    });
    expect(retry.status).toBe(400);
  });
});

describe('LOGIN_CAPTCHA=after_failures', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ LOGIN_CAPTCHA: 'after_failures' });
  });
  afterAll(() => platform?.close());

  it('asks for a captcha after 3 failed logins for a username', async () => {
    const username = uniq('victim');
    const token = await platform.adminToken();
    await platform.call('POST', '/api/v1/users', {
      token,
      body: { username, password: 'Victim-Passw0rd!' },
    });
    for (let i = 0; i < 3; i++) {
      const res = await platform.call('POST', '/api/v1/login', {
        body: { username, password: 'guess' },
        headers: { 'x-forwarded-for': `10.0.0.${i}` },
      });
      expect(res.body.code).toBe(40103);
    }
    const blocked = await platform.call('POST', '/api/v1/login', {
      body: { username, password: 'Victim-Passw0rd!' },
    });
    expect(blocked.status).toBe(400);
    expect(blocked.body.data.fields[0]).toMatchObject({ field: 'captcha', rule: 'required' });
    const solved = await solve(platform);
    const ok = await platform.call('POST', '/api/v1/login', {
      body: { username, password: 'Victim-Passw0rd!', ...solved },
    });
    expect(ok.status).toBe(200);
    // A success clears the account's count, not the IP's: the three failures came from this
    // address (the gateway does not trust X-Forwarded-For here), so it still needs a captcha.
    const again = await platform.call('POST', '/api/v1/login', {
      body: { username, password: 'Victim-Passw0rd!' },
    });
    expect(again.status).toBe(400);
    expect(again.body.data.fields[0]).toMatchObject({ field: 'captcha', rule: 'required' });
  });
});
