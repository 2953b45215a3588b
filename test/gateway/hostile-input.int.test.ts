import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
let token: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  token = await platform.adminToken();
});
afterAll(() => platform?.close());

/** Never a 5xx, never a stack trace, always the envelope. */
function expectClientError(res: { status: number; body: any; text: string }, status = 400) {
  expect(res.status).toBe(status);
  expect(typeof res.body.code).toBe('number');
  expect(Math.floor(res.body.code / 100)).toBe(status);
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}

describe('hostile input', () => {
  it('refuses a NUL character in text and stores nothing', async () => {
    const username = uniq('nul');
    const res = await platform.call('POST', '/api/v1/users', {
      token,
      body: { username, password: 'Nul-Passw0rd!x', nickname: 'bad\u0000nick' },
    });
    expectClientError(res);
    const list = await platform.call('GET', `/api/v1/users?keyword=${username}`, { token });
    expect(list.body.data.total).toBe(0);
  });

  it.each(['9223372036854775808', '99999999999999999999999', '-1', '1.5', 'abc', "1' OR '1'='1"])(
    'answers an id of %j without a 5xx',
    async (id) => {
      const res = await platform.call('GET', `/api/v1/users/${encodeURIComponent(id)}`, { token });
      expect([400, 404]).toContain(res.status);
      expectClientError(res, res.status);
    },
  );

  it.each(['0', '-1', 'abc', '1e9', '1.5', '%00'])(
    'answers page_size=%j with 400',
    async (value) => {
      const res = await platform.call('GET', `/api/v1/users?page_size=${value}`, { token });
      expectClientError(res);
    },
  );

  it('clamps a huge page_size to 100', async () => {
    const res = await platform.call('GET', '/api/v1/users?page_size=1000000000', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.page_size).toBe(100);
  });

  it('stores injection strings, RTL overrides and lone surrogates as plain text', async () => {
    const nickname = "Robert'); DROP TABLE iam_users;-- \u202e\ud800";
    const res = await platform.call('POST', '/api/v1/users', {
      token,
      body: { username: uniq('bobby'), password: 'Bobby-Passw0rd!', nickname },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.nickname).toContain("Robert'); DROP TABLE iam_users;--");
    const users = await platform.call('GET', '/api/v1/users', { token });
    expect(users.status).toBe(200);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const res = await platform.call('POST', '/api/v1/users', { token, rawBody: raw });
      expectClientError(res);
    }
  });

  it('answers a non-JSON content type with 400', async () => {
    const res = await platform.call('POST', '/api/v1/users', {
      token,
      rawBody: 'username=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([400, 415]).toContain(res.status);
    expect(res.status).toBeLessThan(500);
  });
});
