import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith } from '../bpm/fixtures.js';
import { auditRowsOf, createTenant } from './system-fixtures.js';

// Tenant settings: typed values, checked on write, one tenant's invisible to another.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const call = (method: string, path: string, body?: unknown, token = admin) =>
  platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
const newKey = () => uniq('site.k').toLowerCase();

describe('settings', () => {
  it('store a value of each type and give it back as that type', async () => {
    const cases = [
      ['string', 'Approva Ltd'],
      ['number', 12.5],
      ['boolean', false],
      ['json', { footer: ['a', 1, null], nested: { deep: true } }],
      ['json', [1, 2, 3]],
      ['json', 'a JSON string'],
    ] as const;
    for (const [type, value] of cases) {
      const key = newKey();
      const put = await call('PUT', `/api/v1/system/settings/${key}`, {
        type,
        value,
        description: 'd',
      });
      expect(put.status, `${type} ${JSON.stringify(value)}`).toBe(200);
      expect(put.body.data).toMatchObject({ key, type, value, description: 'd' });
      expect((await call('GET', `/api/v1/system/settings/${key}`)).body.data.value).toEqual(value);
    }
  });

  it('replace a setting, delete it, and audit each change', async () => {
    const key = newKey();
    await call('PUT', `/api/v1/system/settings/${key}`, { type: 'number', value: 1 });
    const changed = await call('PUT', `/api/v1/system/settings/${key}`, {
      type: 'string',
      value: 'one',
    });
    expect(changed.body.data).toMatchObject({ type: 'string', value: 'one' });
    const listed = await call('GET', `/api/v1/system/settings?keyword=${key}`);
    expect(listed.body.data).toMatchObject({ total: 1, list: [{ key, value: 'one' }] });
    expect((await call('DELETE', `/api/v1/system/settings/${key}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/system/settings/${key}`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/system/settings/${key}`)).status).toBe(404);
    const rows = await auditRowsOf(platform, admin, 'setting', key);
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    expect(rows[1]).toMatchObject({ before: { value: 1 }, after: { value: 'one' } });
  });

  it('refuse a value that is not of its type (40001), changing nothing', async () => {
    const key = newKey();
    await call('PUT', `/api/v1/system/settings/${key}`, { type: 'boolean', value: true });
    for (const body of [
      { type: 'number', value: '12' },
      { type: 'number', value: null },
      { type: 'boolean', value: 'true' },
      { type: 'string', value: 5 },
      { type: 'string', value: 'x'.repeat(10_001) },
      { type: 'json', value: { big: 'x'.repeat(70_000) } },
      { type: 'json' },
      { type: 'yaml', value: 'a: 1' },
      { type: 'string', value: 'x', description: 7 },
    ]) {
      const res = await call('PUT', `/api/v1/system/settings/${key}`, body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 80)).toEqual([400, 40001]);
    }
    expect((await call('GET', `/api/v1/system/settings/${key}`)).body.data).toMatchObject({
      type: 'boolean',
      value: true,
    });
    for (const bad of ['Upper', '1abc', 'a%20b', '-x']) {
      const res = await call('PUT', `/api/v1/system/settings/${bad}`, {
        type: 'string',
        value: 'x',
      });
      expect([res.status, res.body.code], bad).toEqual([400, 40000]);
    }
    // PostgreSQL cannot store NUL: the platform's 40000, never a 500.
    const nul = await call('PUT', `/api/v1/system/settings/${key}`, {
      type: 'string',
      value: 'a\u0000b',
    });
    expect([nul.status, nul.body.code]).toEqual([400, 40000]);
    // A path parameter over 100 characters is the platform's 414.
    const long = await call('PUT', `/api/v1/system/settings/${'x'.repeat(101)}`, {
      type: 'string',
      value: 'x',
    });
    expect([long.status, long.body.code]).toEqual([414, 41400]);
    expect((await call('GET', '/api/v1/system/settings?page=0')).body.code).toBe(40000);
  });

  it('keep each tenant\u2019s settings to itself', async () => {
    const key = newKey();
    await call('PUT', `/api/v1/system/settings/${key}`, { type: 'string', value: 'mine' });
    const tenant = await createTenant(platform, admin);
    expect(
      (await call('GET', `/api/v1/system/settings/${key}`, undefined, tenant.token)).status,
    ).toBe(404);
    expect(
      (await call('DELETE', `/api/v1/system/settings/${key}`, undefined, tenant.token)).status,
    ).toBe(404);
    const theirs = await call(
      'PUT',
      `/api/v1/system/settings/${key}`,
      { type: 'string', value: 'theirs' },
      tenant.token,
    );
    expect(theirs.status).toBe(200);
    expect((await call('GET', `/api/v1/system/settings/${key}`)).body.data.value).toBe('mine');
    const listed = await call(
      'GET',
      '/api/v1/system/settings?page_size=100',
      undefined,
      tenant.token,
    );
    expect(listed.body.data.list.map((s: any) => s.value)).toEqual(['theirs']);
  });

  it('need system:setting:list to read and system:setting:update to write', async () => {
    const reader = await createUserWith(platform, ['system:setting:list']);
    expect((await call('GET', '/api/v1/system/settings', undefined, reader.token)).status).toBe(
      200,
    );
    const put = await call(
      'PUT',
      `/api/v1/system/settings/${newKey()}`,
      { type: 'string', value: 'x' },
      reader.token,
    );
    expect([put.status, put.body.code]).toEqual([403, 40300]);
    const plain = await createUserWith(platform, []);
    expect((await call('GET', '/api/v1/system/settings', undefined, plain.token)).status).toBe(403);
  });
});
