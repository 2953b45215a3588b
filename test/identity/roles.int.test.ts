import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createRole, dataOf, signedInUserWith } from './identity-fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
});

describe('roles: CRUD', () => {
  it('creates, reads, lists, updates and deletes a role', async () => {
    const code = uniq('auditor');
    const created = dataOf(
      await platform.call('POST', '/api/v1/roles', {
        token: admin,
        body: { code, name: 'Auditor', permissions: ['system:log:audit'] },
      }),
    );
    expect(created).toMatchObject({
      tenant_id: 1,
      code,
      name: 'Auditor',
      permissions: ['system:log:audit'],
    });
    expect(created.updated_at).toMatch(/Z$/);

    expect(
      dataOf(await platform.call('GET', `/api/v1/roles/${created.id}`, { token: admin })),
    ).toEqual(created);
    const list = dataOf(
      await platform.call('GET', `/api/v1/roles?keyword=${code}`, { token: admin }),
    );
    expect(list).toMatchObject({ total: 1, list: [created] });

    const updated = dataOf(
      await platform.call('PUT', `/api/v1/roles/${created.id}`, {
        token: admin,
        body: { name: 'Chief auditor', permissions: ['system:log:*'] },
      }),
    );
    expect(updated).toMatchObject({ code, name: 'Chief auditor', permissions: ['system:log:*'] });

    dataOf(await platform.call('DELETE', `/api/v1/roles/${created.id}`, { token: admin }));
    const gone = await platform.call('GET', `/api/v1/roles/${created.id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(40400);
  });

  it('stores permission codes deduplicated and sorted', async () => {
    const role = await createRole(platform, admin, [
      'system:user:list',
      'bpm:definition:*',
      'system:user:list',
      'system:log:audit',
    ]);
    expect(role.permissions).toEqual(['bpm:definition:*', 'system:log:audit', 'system:user:list']);
  });

  it('lists roles by keyword on code or name, ordered by id', async () => {
    const tag = uniq('kw');
    const a = await createRole(platform, admin, [], { code: `${tag}_a` });
    const b = await createRole(platform, admin, [], { name: `Name ${tag.toUpperCase()}` });
    const list = dataOf(
      await platform.call('GET', `/api/v1/roles?keyword=${tag}`, { token: admin }),
    );
    expect(list.list.map((r: any) => r.id)).toEqual([a.id, b.id]);
    const injection = await platform.call(
      'GET',
      `/api/v1/roles?keyword=${encodeURIComponent("' OR ''='")}`,
      { token: admin },
    );
    expect(injection.status).toBe(200);
    expect(injection.body.data.total).toBe(0);
  });
});

describe('roles: rules', () => {
  it('reports every problem of a role at once', async () => {
    const res = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: {
        code: 'Bad Code',
        name: '',
        permissions: ['system:user:list', 'NOT VALID', ':x', 'a::b'],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    const fields = res.body.data.fields.map((f: any) => f.field).sort();
    expect(fields).toEqual(['code', 'name', 'permissions.1', 'permissions.2', 'permissions.3']);
  });

  it('refuses more than 200 permission codes', async () => {
    const permissions = Array.from({ length: 201 }, () => 'system:user:list');
    const res = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: uniq('big'), name: 'Big', permissions },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({ field: 'permissions', rule: 'max_length' }),
    ]);
  });

  it('refuses a duplicate role code in the tenant', async () => {
    const role = await createRole(platform, admin, []);
    const again = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: role.code, name: 'Again', permissions: [] },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(40900);
    const other = await createRole(platform, admin, []);
    const rename = await platform.call('PUT', `/api/v1/roles/${other.id}`, {
      token: admin,
      body: { code: role.code },
    });
    expect(rename.status).toBe(409);
  });

  it('denies a user whose role lacks the code, and allows them as soon as it is granted', async () => {
    const { role, token } = await signedInUserWith(platform, admin, ['system:dept:list']);
    const denied = await platform.call('GET', '/api/v1/roles', { token });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(40300);

    dataOf(
      await platform.call('PUT', `/api/v1/roles/${role.id}`, {
        token: admin,
        body: { permissions: ['system:dept:list', 'system:role:list'] },
      }),
    );
    expect((await platform.call('GET', '/api/v1/roles', { token })).status).toBe(200);
    // Only the code granted: creating is still refused.
    const create = await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: uniq('x'), name: 'x', permissions: [] },
    });
    expect(create.status).toBe(403);
  });

  it('removes the permissions of a deleted role from its holders at once', async () => {
    const { role, token } = await signedInUserWith(platform, admin, ['system:role:list']);
    expect((await platform.call('GET', '/api/v1/roles', { token })).status).toBe(200);
    dataOf(await platform.call('DELETE', `/api/v1/roles/${role.id}`, { token: admin }));
    const after = await platform.call('GET', '/api/v1/roles', { token });
    expect(after.status).toBe(403);
    expect(after.body.code).toBe(40300);
    const me = dataOf(await platform.call('GET', '/api/v1/me', { token }));
    expect(me.roles).toEqual([]);
    expect(me.permissions).toEqual([]);
  });

  it("applies a change of a user's roles at once", async () => {
    const { user, token } = await signedInUserWith(platform, admin, ['system:role:list']);
    expect((await platform.call('GET', '/api/v1/roles', { token })).status).toBe(200);
    dataOf(
      await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { role_ids: [] },
      }),
    );
    expect((await platform.call('GET', '/api/v1/roles', { token })).status).toBe(403);
  });

  it('grants a whole module with a prefix:* code', async () => {
    const { token } = await signedInUserWith(platform, admin, ['system:role:*']);
    const created = await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: uniq('made'), name: 'Made', permissions: [] },
    });
    expect(created.status).toBe(200);
    expect((await platform.call('GET', '/api/v1/users', { token })).status).toBe(403);
  });

  it('answers 404 for an unknown role on every method', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await platform.call(method, '/api/v1/roles/987654321', {
        token: admin,
        ...(method === 'PUT' ? { body: { name: 'x' } } : {}),
      });
      expect(res.status, method).toBe(404);
      expect(res.body.code, method).toBe(40400);
    }
  });
});
