import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith } from '../bpm/fixtures.js';

// Posts: a tenant's job positions, held by users; tenant-scoped and in the business audit.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const code = () =>
  uniq('post')
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '');
const create = (token: string, body: Record<string, unknown>) =>
  platform.call('POST', '/api/v1/posts', { token, body });

describe('posts', () => {
  it('are created, listed, held by users, and deleted only once nobody holds them', async () => {
    const created = await create(admin, { code: code(), name: 'Accountant', sort: 5 });
    expect(created.status).toBe(200);
    const post = created.body.data;
    expect(post).toMatchObject({ name: 'Accountant', sort: 5, status: 'active', holders: 0 });
    const user = await createUserWith(platform, []);
    const held = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { post_ids: [post.id] },
    });
    expect(held.body.data.post_ids).toEqual([post.id]);
    expect(
      (await platform.call('GET', `/api/v1/posts/${post.id}`, { token: admin })).body.data.holders,
    ).toBe(1);
    const list = await platform.call('GET', `/api/v1/posts?keyword=${post.code}`, { token: admin });
    expect(list.body.data.list.map((p: any) => p.id)).toEqual([post.id]);
    const busy = await platform.call('DELETE', `/api/v1/posts/${post.id}`, { token: admin });
    expect([busy.status, busy.body.code]).toEqual([409, 40900]);
    await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { post_ids: [] },
    });
    expect(
      (await platform.call('DELETE', `/api/v1/posts/${post.id}`, { token: admin })).status,
    ).toBe(200);
    const audit = await platform.call(
      'GET',
      `/api/v1/logs/audit?target_type=post&target_id=${post.id}`,
      {
        token: admin,
      },
    );
    expect(audit.body.data.list.map((e: any) => e.action).sort()).toEqual(['create', 'delete']);
  });

  it('refuses a duplicate code (409), an unknown post on a user (40001), and a caller without the code (403)', async () => {
    const first = (await create(admin, { code: code(), name: 'Clerk' })).body.data;
    const again = await create(admin, { code: first.code, name: 'Clerk again' });
    expect([again.status, again.body.code]).toEqual([409, 40900]);
    const user = await createUserWith(platform, []);
    const unknown = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { post_ids: [first.id, 987654321] },
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 40001]);
    expect(unknown.body.data.fields).toEqual([expect.objectContaining({ field: 'post_ids.1' })]);
    const denied = await create(user.token, { code: code(), name: 'X' });
    expect([denied.status, denied.body.code]).toEqual([403, 40300]);
  });

  it('belong to their tenant: another tenant\u2019s post is 404 and cannot be given to a user', async () => {
    const tenantCode = uniq('t')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    const password = 'Other-Tenant-Admin-2026!';
    const tenant = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code: tenantCode, name: 'Other', admin_username: 'boss', admin_password: password },
    });
    expect(tenant.status).toBe(200);
    const other = (await platform.login('boss', password, tenantCode)).access_token;
    const theirs = (await create(other, { code: code(), name: 'Theirs' })).body.data;
    expect(
      (await platform.call('GET', `/api/v1/posts/${theirs.id}`, { token: admin })).status,
    ).toBe(404);
    expect(
      (await platform.call('DELETE', `/api/v1/posts/${theirs.id}`, { token: admin })).status,
    ).toBe(404);
    const user = await createUserWith(platform, []);
    const given = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { post_ids: [theirs.id] },
    });
    expect([given.status, given.body.code]).toEqual([400, 40001]);
  });
});
