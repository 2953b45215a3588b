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

  /**
   * API.md sets no Unicode normalisation for names: text is stored as sent, like the injection
   * strings above, and compared as stored. So "é" (U+00E9, NFC) and "e" + U+0301 (NFD), which
   * look alike, are two names: a unique name (a package's) takes both, and each reads back as
   * sent. Names that sign in or key a tenant (username, tenant and role codes) are ASCII only,
   * so no look-alike pair exists there: either spelling is 400.
   */
  it('treats NFC and NFD spellings of a name as two names, each stored as sent', async () => {
    const tag = uniq('n');
    const nfc = `Caf\u00e9 ${tag}`;
    const nfd = `Cafe\u0301 ${tag}`;
    expect(nfc.normalize('NFD')).toBe(nfd);

    const pkg = async (name: string) =>
      platform.call('POST', '/api/v1/packages', { token, body: { name, menu_ids: [] } });
    const first = await pkg(nfc);
    const second = await pkg(nfd);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.data.name, second.body.data.name]).toEqual([nfc, nfd]);
    // The unique name still holds for the very same code points.
    const again = await pkg(nfc);
    expect([again.status, again.body.code]).toEqual([409, 40900]);
    for (const created of [first, second]) {
      const read = await platform.call('GET', `/api/v1/packages/${created.body.data.id}`, {
        token,
      });
      expect(read.body.data.name).toBe(created.body.data.name);
    }

    for (const [path, body] of [
      ['/api/v1/roles', (name: string) => ({ code: uniq('r'), name, permissions: [] })],
      ['/api/v1/departments', (name: string) => ({ name })],
    ] as const) {
      for (const name of [nfc, nfd]) {
        const res = await platform.call('POST', path, { token, body: body(name) });
        expect([path, res.status, res.body.data?.name]).toEqual([path, 200, name]);
      }
    }

    for (const username of [`jos\u00e9_${tag}`, `jose\u0301_${tag}`]) {
      const res = await platform.call('POST', '/api/v1/users', {
        token,
        body: { username, password: 'Unicode-Passw0rd!' },
      });
      expectClientError(res);
      expect(res.body.data.fields.map((f: { field: string }) => f.field)).toEqual(['username']);
    }
    const users = await platform.call('GET', `/api/v1/users?keyword=${tag}`, { token });
    expect(users.body.data.total).toBe(0);
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
