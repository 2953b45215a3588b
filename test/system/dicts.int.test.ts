import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith } from '../bpm/fixtures.js';
import { auditRowsOf, createTenant } from './system-fixtures.js';

// Dictionaries: ordered option lists, edited under codes, read by every user for selects.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const call = (method: string, path: string, body?: unknown, token = admin) =>
  platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
const newCode = () => uniq('leave-type').toLowerCase();

async function dict(items: unknown[], token = admin) {
  const res = await call(
    'POST',
    '/api/v1/system/dicts',
    { code: newCode(), name: 'Leave types', items },
    token,
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('dictionaries', () => {
  it('keep items ordered by sort, then as sent, with defaults filled in', async () => {
    const created = await dict([
      { value: 'sick', label: '病假', label_en: 'Sick', sort: 2 },
      { value: 'annual', label: '年假', sort: 1 },
      { value: 'other', label: '其他', sort: 2, enabled: false },
    ]);
    expect(created.items).toEqual([
      { value: 'annual', label: '年假', label_en: null, sort: 1, enabled: true },
      { value: 'sick', label: '病假', label_en: 'Sick', sort: 2, enabled: true },
      { value: 'other', label: '其他', label_en: null, sort: 2, enabled: false },
    ]);
    expect((await call('GET', `/api/v1/system/dicts/${created.id}`)).body.data.items).toEqual(
      created.items,
    );
  });

  it('give every signed-in user of the tenant the enabled items for a select', async () => {
    const created = await dict([
      { value: 'b', label: 'B', sort: 2 },
      { value: 'a', label: 'A', label_en: 'A-en', sort: 1 },
      { value: 'off', label: 'Off', enabled: false },
    ]);
    const plain = await createUserWith(platform, []);
    const res = await call(
      'GET',
      `/api/v1/system/dicts/${created.code}/items`,
      undefined,
      plain.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      code: created.code,
      name: 'Leave types',
      items: [
        { value: 'a', label: 'A', label_en: 'A-en' },
        { value: 'b', label: 'B', label_en: null },
      ],
    });
    expect((await call('GET', '/api/v1/system/dicts', undefined, plain.token)).status).toBe(403);
    const unknown = await call(
      'GET',
      `/api/v1/system/dicts/${newCode()}/items`,
      undefined,
      plain.token,
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, 40400]);
    expect((await call('GET', '/api/v1/system/dicts/Bad%20Code/items')).body.code).toBe(40000);
    expect((await platform.call('GET', `/api/v1/system/dicts/${created.code}/items`)).status).toBe(
      401,
    );
  });

  it('are changed, replaced item by item, deleted, and audited', async () => {
    const created = await dict([{ value: 'a', label: 'A' }]);
    const changed = await call('PUT', `/api/v1/system/dicts/${created.id}`, {
      name: 'Renamed',
      items: [{ value: 'z', label: 'Z' }],
    });
    expect(changed.body.data).toMatchObject({
      code: created.code,
      name: 'Renamed',
      items: [{ value: 'z' }],
    });
    const renamedOnly = await call('PUT', `/api/v1/system/dicts/${created.id}`, { name: 'Again' });
    expect(renamedOnly.body.data.items).toEqual(changed.body.data.items);
    const listed = await call('GET', `/api/v1/system/dicts?keyword=${created.code}`);
    expect(listed.body.data).toMatchObject({ total: 1, list: [{ id: created.id, name: 'Again' }] });
    expect((await call('DELETE', `/api/v1/system/dicts/${created.id}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/system/dicts/${created.code}/items`)).status).toBe(404);
    const rows = await auditRowsOf(platform, admin, 'dict', created.id);
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'update', 'create']);
  });

  it('refuse duplicate codes (409) and duplicate or malformed items (40001), changing nothing', async () => {
    const created = await dict([{ value: 'a', label: 'A' }]);
    const dup = await call('POST', '/api/v1/system/dicts', { code: created.code, name: 'x' });
    expect([dup.status, dup.body.code]).toEqual([409, 40900]);
    const other = await dict([]);
    const clash = await call('PUT', `/api/v1/system/dicts/${other.id}`, { code: created.code });
    expect([clash.status, clash.body.code]).toEqual([409, 40900]);
    const twice = await call('PUT', `/api/v1/system/dicts/${created.id}`, {
      items: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
        { value: 'a', label: 'again' },
      ],
    });
    expect([twice.status, twice.body.code]).toEqual([400, 40001]);
    expect(twice.body.data.fields).toEqual([expect.objectContaining({ field: 'items.2.value' })]);
    for (const body of [
      { code: 'A', name: 'x' },
      { code: newCode(), name: '' },
      { code: newCode(), name: 'x', items: [{ value: '', label: 'x' }] },
      { code: newCode(), name: 'x', items: [{ value: 'v' }] },
      { code: newCode(), name: 'x', items: [{ value: 'v', label: 'l', sort: 1.5 }] },
      { code: newCode(), name: 'x', items: 'a,b' },
      {
        code: newCode(),
        name: 'x',
        items: Array.from({ length: 501 }, (_, i) => ({ value: `v${i}`, label: 'l' })),
      },
    ]) {
      const res = await call('POST', '/api/v1/system/dicts', body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 80)).toEqual([400, 40001]);
    }
    // PostgreSQL cannot store NUL: the platform's 40000, never a 500.
    const nul = await call('PUT', `/api/v1/system/dicts/${created.id}`, {
      items: [{ value: 'a\u0000', label: 'A' }],
    });
    expect([nul.status, nul.body.code]).toEqual([400, 40000]);
    expect((await call('GET', `/api/v1/system/dicts/${created.id}`)).body.data.items).toEqual(
      created.items,
    );
    expect((await call('GET', '/api/v1/system/dicts/abc')).body.code).toBe(40000);
    expect((await call('PUT', '/api/v1/system/dicts/987654321', { name: 'x' })).status).toBe(404);
  });

  it('keep each tenant\u2019s dictionaries to itself', async () => {
    const mine = await dict([{ value: 'a', label: 'A' }]);
    const tenant = await createTenant(platform, admin);
    for (const [method, body] of [['GET'], ['PUT', { name: 'taken' }], ['DELETE']] as const) {
      const res = await call(method, `/api/v1/system/dicts/${mine.id}`, body, tenant.token);
      expect([res.status, res.body.code]).toEqual([404, 40400]);
    }
    const items = await call(
      'GET',
      `/api/v1/system/dicts/${mine.code}/items`,
      undefined,
      tenant.token,
    );
    expect(items.status).toBe(404);
    // The same code is free in another tenant.
    const theirs = await call(
      'POST',
      '/api/v1/system/dicts',
      { code: mine.code, name: 'Theirs' },
      tenant.token,
    );
    expect(theirs.status).toBe(200);
    expect((await call('GET', `/api/v1/system/dicts/${mine.id}`)).body.data.name).toBe(
      'Leave types',
    );
  });
});
