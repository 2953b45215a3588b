import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith } from '../bpm/fixtures.js';

// Tenant packages: the menus a tenant may use and its storage quota (platform administrators).

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const flatten = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const call = (method: string, path: string, body?: unknown, token = admin) =>
  platform.call(method, path, { token, ...(body ? { body } : {}) });

async function menuIdOf(path: string) {
  const tree = (await call('GET', '/api/v1/menus')).body.data;
  return flatten(tree).find((n) => n.path === path).id as number;
}

async function tenantOn(packageId: number | null) {
  const code = uniq('pk')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const password = 'Package-Tenant-Admin-2026!';
  const res = await call('POST', '/api/v1/tenants', {
    code,
    name: 'Packaged',
    package_id: packageId,
    admin_username: 'boss',
    admin_password: password,
  });
  expect(res.status).toBe(200);
  return {
    tenant: res.body.data,
    token: (await platform.login('boss', password, code)).access_token,
  };
}

describe('tenant packages', () => {
  it('narrow the menus of a tenant\u2019s users to the entries the package lists', async () => {
    const todo = await menuIdOf('/todo');
    const users = await menuIdOf('/admin/users');
    const created = await call('POST', '/api/v1/packages', {
      name: uniq('basic'),
      menu_ids: [todo, users],
      storage_quota_mb: 100,
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ storage_quota_mb: 100, tenants: 0 });
    const { tenant, token } = await tenantOn(created.body.data.id);
    expect(tenant.package_id).toBe(created.body.data.id);
    // The tenant's admin holds `*`, yet sees only what the package lists (and its directory).
    const mine = flatten((await call('GET', '/api/v1/menus/my', undefined, token)).body.data);
    expect(mine.map((n) => n.path ?? n.name).sort()).toEqual(
      ['/admin/users', '/todo', 'menu.identity'].sort(),
    );
    // Without a package, the same codes open every page.
    const { token: free } = await tenantOn(null);
    const all = flatten((await call('GET', '/api/v1/menus/my', undefined, free)).body.data);
    expect(all.map((n) => n.path)).toContain('/admin/roles');
    // A package tenants are on cannot be deleted.
    const busy = await call('DELETE', `/api/v1/packages/${created.body.data.id}`);
    expect([busy.status, busy.body.code]).toEqual([409, 40900]);
    await call('PUT', `/api/v1/tenants/${tenant.id}`, { package_id: null });
    expect((await call('DELETE', `/api/v1/packages/${created.body.data.id}`)).status).toBe(200);
  });

  it('refuse unknown menus and packages (40001), duplicates (409) and non-administrators (403)', async () => {
    const bad = await call('POST', '/api/v1/packages', { name: uniq('x'), menu_ids: [987654321] });
    expect([bad.status, bad.body.code]).toEqual([400, 40001]);
    expect(bad.body.data.fields).toEqual([expect.objectContaining({ field: 'menu_ids.0' })]);
    const name = uniq('dup');
    expect((await call('POST', '/api/v1/packages', { name, menu_ids: [] })).status).toBe(200);
    const dup = await call('POST', '/api/v1/packages', { name, menu_ids: [] });
    expect([dup.status, dup.body.code]).toEqual([409, 40900]);
    const noPackage = await call('POST', '/api/v1/tenants', {
      code: uniq('np')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
      name: 'No package',
      package_id: 987654321,
      admin_username: 'boss',
      admin_password: 'Package-Tenant-Admin-2026!',
    });
    expect([noPackage.status, noPackage.body.code]).toEqual([400, 40001]);
    const holder = await createUserWith(platform, ['system:package:list']);
    const denied = await call('GET', '/api/v1/packages', undefined, holder.token);
    expect([denied.status, denied.body.code]).toEqual([403, 40300]);
    const audit = await call('GET', '/api/v1/logs/audit?target_type=package&page_size=100');
    expect(audit.body.data.list.length).toBeGreaterThan(0);
  });
});
