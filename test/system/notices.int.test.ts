import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith } from '../bpm/fixtures.js';
import { auditRowsOf, createTenant, createUserIn } from './system-fixtures.js';

// Notices: tenant-scoped CRUD under permission codes; the effective ones for every user.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const call = (method: string, path: string, body?: unknown, token = admin) =>
  platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const HOUR = 3_600_000;

async function notice(body: Record<string, unknown>, token = admin) {
  const res = await call(
    'POST',
    '/api/v1/notices',
    { title: uniq('n'), body: 'text', ...body },
    token,
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('notices', () => {
  it('are created, read, changed and deleted, each change audited', async () => {
    const title = uniq('Maintenance');
    const created = await call('POST', '/api/v1/notices', {
      title,
      body: 'Saturday night',
      level: 'warning',
      starts_at: '2030-01-01T08:00:00+08:00',
      ends_at: '2030-01-02T00:00:00Z',
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({
      title,
      level: 'warning',
      published: false,
      starts_at: '2030-01-01T00:00:00.000Z',
      ends_at: '2030-01-02T00:00:00.000Z',
    });
    expect((await call('GET', `/api/v1/notices/${id}`)).body.data.title).toBe(title);
    const listed = await call('GET', `/api/v1/notices?keyword=${title}`);
    expect(listed.body.data).toMatchObject({ total: 1, page: 1, page_size: 10 });
    const changed = await call('PUT', `/api/v1/notices/${id}`, { published: true, level: 'info' });
    expect(changed.body.data).toMatchObject({ published: true, level: 'info', title });
    expect(changed.body.data.starts_at).toBe('2030-01-01T00:00:00.000Z');
    const published = await call('GET', `/api/v1/notices?keyword=${title}&published=true`);
    expect(published.body.data.total).toBe(1);
    expect((await call('DELETE', `/api/v1/notices/${id}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/notices/${id}`)).status).toBe(404);
    const rows = await auditRowsOf(platform, admin, 'notice', id);
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    expect(rows[1]!.before.published).toBe(false);
    expect(rows[1]!.after.published).toBe(true);
  });

  it('show every user the published notices in effect now, newest first, and nothing else', async () => {
    const tenant = await createTenant(platform, admin);
    const older = await notice({ published: true, starts_at: at(-2 * HOUR) }, tenant.token);
    const newer = await notice(
      { published: true, starts_at: at(-HOUR), ends_at: at(HOUR) },
      tenant.token,
    );
    const open = await notice({ published: true }, tenant.token);
    await notice({ published: false }, tenant.token); // a draft
    await notice({ published: true, starts_at: at(HOUR) }, tenant.token); // not yet
    await notice({ published: true, starts_at: at(-2 * HOUR), ends_at: at(-HOUR) }, tenant.token); // over
    await notice({ published: true }); // another tenant's
    // A user without any permission code reads them.
    const plain = await createUserIn(platform, tenant, []);
    const res = await call('GET', '/api/v1/notices/effective', undefined, plain.token);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data.map((n: any) => n.id)).toEqual([open.id, newer.id, older.id]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      ['body', 'created_at', 'ends_at', 'id', 'level', 'starts_at', 'title'].sort(),
    );
    expect((await platform.call('GET', '/api/v1/notices/effective')).status).toBe(401);
  });

  it('answer at most 50 effective notices', async () => {
    const tenant = await createTenant(platform, admin);
    const ids: number[] = [];
    for (let i = 0; i < 53; i++) ids.push((await notice({ published: true }, tenant.token)).id);
    const res = await call('GET', '/api/v1/notices/effective', undefined, tenant.token);
    expect(res.body.data).toHaveLength(50);
    expect(res.body.data[0].id).toBe(ids.at(-1));
  });

  it('refuse a window whose end is not after its start, on create and on a partial update', async () => {
    const start = at(HOUR);
    for (const ends_at of [start, at(-HOUR)]) {
      const bad = await call('POST', '/api/v1/notices', {
        title: 'x',
        body: 'y',
        starts_at: start,
        ends_at,
      });
      expect([bad.status, bad.body.code]).toEqual([400, 40001]);
      expect(bad.body.data.fields).toEqual([
        expect.objectContaining({ field: 'ends_at', rule: 'range' }),
      ]);
    }
    const created = await notice({ starts_at: start, ends_at: at(2 * HOUR) });
    const moved = await call('PUT', `/api/v1/notices/${created.id}`, { ends_at: at(-HOUR) });
    expect([moved.status, moved.body.code]).toEqual([400, 40001]);
    const after = await call('GET', `/api/v1/notices/${created.id}`);
    expect(after.body.data.ends_at).toBe(created.ends_at);
  });

  it('refuse bad input with its envelope error, changing nothing', async () => {
    const before = (await call('GET', '/api/v1/notices')).body.data.total;
    for (const body of [
      { title: '', body: 'x' },
      { title: 'x' },
      { title: 'x', body: 'y', level: 'fatal' },
      { title: 'x', body: 'y', published: 'yes' },
      { title: 'x', body: 'y', starts_at: 'tomorrow' },
      { title: 'x'.repeat(201), body: 'y' },
    ]) {
      const res = await call('POST', '/api/v1/notices', body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 40001]);
    }
    expect((await call('GET', '/api/v1/notices')).body.data.total).toBe(before);
    for (const query of ['published=maybe', 'page_size=abc', 'level=fatal']) {
      const res = await call('GET', `/api/v1/notices?${query}`);
      expect([res.status, res.body.code]).toEqual([400, 40000]);
    }
    expect((await call('GET', '/api/v1/notices/abc')).body.code).toBe(40000);
    expect((await call('PUT', '/api/v1/notices/987654321', { title: 'x' })).status).toBe(404);
    expect((await call('DELETE', '/api/v1/notices/987654321')).status).toBe(404);
  });

  it('keep each tenant\u2019s notices to itself (another tenant\u2019s id is 404)', async () => {
    const mine = await notice({ published: true });
    const tenant = await createTenant(platform, admin);
    for (const [method, body] of [['GET'], ['PUT', { title: 'taken' }], ['DELETE']] as const) {
      const res = await call(method, `/api/v1/notices/${mine.id}`, body, tenant.token);
      expect([res.status, res.body.code]).toEqual([404, 40400]);
    }
    const listed = await call('GET', '/api/v1/notices?page_size=100', undefined, tenant.token);
    expect(listed.body.data.list.map((n: any) => n.id)).not.toContain(mine.id);
    expect((await call('GET', `/api/v1/notices/${mine.id}`)).body.data.title).toBe(mine.title);
  });

  it('need the permission codes to list and edit', async () => {
    const plain = await createUserWith(platform, []);
    expect((await call('GET', '/api/v1/notices', undefined, plain.token)).status).toBe(403);
    const post = await call('POST', '/api/v1/notices', { title: 'x', body: 'y' }, plain.token);
    expect([post.status, post.body.code]).toEqual([403, 40300]);
    const writer = await createUserWith(platform, ['system:notice:create']);
    expect(
      (await call('POST', '/api/v1/notices', { title: 'x', body: 'y' }, writer.token)).status,
    ).toBe(200);
    expect((await call('GET', '/api/v1/notices', undefined, writer.token)).status).toBe(403);
  });
});
