import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import {
  createDepartment,
  createTenantWithAdmin,
  createUser,
  dataOf,
  PASSWORD,
  signedInUserWith,
} from './identity-fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
});

describe('tenants: CRUD', () => {
  it('creates a tenant whose administrator holds * and is not a platform admin', async () => {
    const code = uniq('acme');
    const username = uniq('boss');
    const tenant = dataOf(
      await platform.call('POST', '/api/v1/tenants', {
        token: admin,
        body: {
          code,
          name: 'Acme',
          storage_quota_mb: 512,
          admin_username: username,
          admin_password: PASSWORD,
        },
      }),
    );
    expect(tenant).toMatchObject({ code, name: 'Acme', status: 'active', storage_quota_mb: 512 });
    expect(Object.keys(tenant).sort()).toEqual(
      [
        'code',
        'created_at',
        'id',
        'name',
        'package_id',
        'status',
        'storage_quota_mb',
        'updated_at',
      ].sort(),
    );

    const login = await platform.login(username, PASSWORD, code);
    expect(login.user).toMatchObject({
      tenant_id: tenant.id,
      roles: ['super_admin'],
      permissions: ['*'],
      is_platform_admin: false,
      must_change_password: false,
    });
    const roles = dataOf(
      await platform.call('GET', '/api/v1/roles', { token: login.access_token }),
    );
    expect(roles.list).toEqual([
      expect.objectContaining({ code: 'super_admin', permissions: ['*'], tenant_id: tenant.id }),
    ]);
  });

  it('lists, reads, updates and deletes tenants', async () => {
    const { tenant, token } = await createTenantWithAdmin(platform, admin);
    const list = dataOf(
      await platform.call('GET', `/api/v1/tenants?keyword=${tenant.code}`, { token: admin }),
    );
    expect(list).toMatchObject({ total: 1, list: [tenant] });
    const all = dataOf(
      await platform.call('GET', '/api/v1/tenants?page_size=100', { token: admin }),
    );
    expect(all.list.map((t: any) => t.id)).toEqual(expect.arrayContaining([1, tenant.id]));
    expect(
      dataOf(await platform.call('GET', `/api/v1/tenants/${tenant.id}`, { token: admin })),
    ).toEqual(tenant);

    const updated = dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { code: tenant.code, name: 'Renamed', storage_quota_mb: 0 },
      }),
    );
    expect(updated).toMatchObject({ code: tenant.code, name: 'Renamed', storage_quota_mb: 0 });

    dataOf(await platform.call('DELETE', `/api/v1/tenants/${tenant.id}`, { token: admin }));
    const gone = await platform.call('GET', `/api/v1/tenants/${tenant.id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(40400);
    // Its users went with it: the administrator's token no longer works.
    expect((await platform.call('GET', '/api/v1/me', { token })).status).toBe(401);
  });

  it('deletes a tenant together with its departments, users and roles', async () => {
    const { tenant, token, adminUsername } = await createTenantWithAdmin(platform, admin);
    const root = await createDepartment(platform, token);
    const child = await createDepartment(platform, token, { parent_id: root.id });
    await createUser(platform, token, { dept_id: child.id });
    dataOf(
      await platform.call('PUT', `/api/v1/departments/${root.id}`, {
        token,
        body: { leader_id: (await createUser(platform, token)).id },
      }),
    );
    dataOf(await platform.call('DELETE', `/api/v1/tenants/${tenant.id}`, { token: admin }));
    await expect(platform.login(adminUsername, PASSWORD, tenant.code)).rejects.toThrow(/401/);
  });
});

describe('tenants: rules', () => {
  it('refuses a duplicate tenant code', async () => {
    const { tenant } = await createTenantWithAdmin(platform, admin);
    const again = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code: tenant.code, name: 'x', admin_username: 'root2', admin_password: PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(40900);
  });

  it('reports every problem of a tenant at once', async () => {
    const res = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: {
        code: 'Not A Code',
        storage_quota_mb: -1,
        admin_username: 'x',
        admin_password: 'admin123',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields.map((f: any) => f.field).sort()).toEqual(
      ['admin_password', 'admin_username', 'code', 'name', 'storage_quota_mb'].sort(),
    );
  });

  it('keeps the tenant code immutable', async () => {
    const { tenant } = await createTenantWithAdmin(platform, admin);
    const res = await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
      token: admin,
      body: { code: uniq('other') },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields).toEqual([expect.objectContaining({ field: 'code' })]);
  });

  it("refuses to delete or disable the default tenant, which is also the caller's own", async () => {
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PUT', { status: 'disabled' }],
    ] as const) {
      const res = await platform.call(method, '/api/v1/tenants/1', { token: admin, body });
      expect(res.status, method).toBe(409);
      expect(res.body.code, method).toBe(40900);
    }
  });

  it('refuses every tenant endpoint to a caller who is not a platform admin', async () => {
    const other = await createTenantWithAdmin(platform, admin);
    const { token: userToken } = await signedInUserWith(platform, admin, ['system:tenant:*']);
    for (const token of [other.token, userToken]) {
      const attempts = [
        platform.call('GET', '/api/v1/tenants', { token }),
        platform.call('GET', `/api/v1/tenants/${other.tenant.id}`, { token }),
        platform.call('POST', '/api/v1/tenants', { token, body: {} }),
        platform.call('PUT', `/api/v1/tenants/${other.tenant.id}`, { token, body: {} }),
        platform.call('DELETE', `/api/v1/tenants/${other.tenant.id}`, { token }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(403);
        expect(res.body.code).toBe(40300);
      }
    }
  });

  it("refuses a disabled tenant's users at once, and lets them back in when re-enabled", async () => {
    const { tenant, adminUsername } = await createTenantWithAdmin(platform, admin);
    const before = await platform.login(adminUsername, PASSWORD, tenant.code);
    const token = before.access_token;
    expect((await platform.call('GET', '/api/v1/users', { token })).status).toBe(200);
    const disabled = dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { status: 'disabled' },
      }),
    );
    expect(disabled.status).toBe('disabled');
    const refused = await platform.call('GET', '/api/v1/users', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(40100);
    // A disabled tenant's user with the right password gets the answer of a wrong password.
    const login = await platform.call('POST', '/api/v1/login', {
      body: { username: adminUsername, password: PASSWORD, tenant_code: tenant.code },
    });
    expect(login.status).toBe(401);
    expect(login.body).toMatchObject({ code: 40103, data: null });

    dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { status: 'active' },
      }),
    );
    // The sessions the disable ended stay ended: neither the old access token nor its refresh
    // token works again.
    expect((await platform.call('GET', '/api/v1/users', { token })).status).toBe(401);
    const refresh = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: before.refresh_token },
    });
    expect(refresh.status).toBe(401);
    const again = await platform.login(adminUsername, PASSWORD, tenant.code);
    expect(
      (await platform.call('GET', '/api/v1/users', { token: again.access_token })).status,
    ).toBe(200);
  });

  it('answers 404 for an unknown tenant and 400 for a non-integer id', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await platform.call(method, '/api/v1/tenants/987654321', {
        token: admin,
        ...(method === 'PUT' ? { body: { name: 'x' } } : {}),
      });
      expect(res.status, method).toBe(404);
    }
    const bad = await platform.call('GET', '/api/v1/tenants/one', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40000);
  });
});
