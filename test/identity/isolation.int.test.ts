import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import {
  createDepartment,
  createRole,
  createTenantWithAdmin,
  createUser,
  dataOf,
  PASSWORD,
} from './identity-fixtures.js';

let platform: TestPlatform;
let admin: string;
/** Rows of the default tenant, and a second tenant's administrator. */
let home: { user: any; role: any; dept: any };
let other: Awaited<ReturnType<typeof createTenantWithAdmin>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
  const dept = await createDepartment(platform, admin);
  const role = await createRole(platform, admin, ['system:user:list']);
  const user = await createUser(platform, admin, { dept_id: dept.id, role_ids: [role.id] });
  home = { user, role, dept };
  other = await createTenantWithAdmin(platform, admin);
});
afterAll(async () => {
  await platform?.close();
});

const RESOURCES = [
  ['users', () => home.user.id, { nickname: 'taken over' }],
  ['roles', () => home.role.id, { permissions: ['*'] }],
  ['departments', () => home.dept.id, { name: 'taken over' }],
] as const;

describe('tenant isolation', () => {
  for (const [resource, idOf, body] of RESOURCES) {
    it(`does not show, change or delete a ${resource.slice(0, -1)} of another tenant`, async () => {
      const path = `/api/v1/${resource}/${idOf()}`;
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', body],
        ['DELETE', undefined],
      ] as const) {
        const res = await platform.call(method, path, { token: other.token, body: payload });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.code).toBe(40400);
      }
      // Still there, unchanged, for its own tenant.
      const own = dataOf(await platform.call('GET', path, { token: admin }));
      expect(own).toMatchObject({ tenant_id: 1 });
      expect(own).not.toMatchObject(body);
    });

    it(`lists only the caller's own ${resource}`, async () => {
      const theirs = dataOf(
        await platform.call('GET', `/api/v1/${resource}?page_size=100`, { token: other.token }),
      );
      expect(theirs.list.length).toBe(theirs.total);
      for (const row of theirs.list) expect(row.tenant_id).toBe(other.tenant.id);
      const ours = dataOf(
        await platform.call('GET', `/api/v1/${resource}?page_size=100`, { token: admin }),
      );
      for (const row of ours.list) expect(row.tenant_id).toBe(1);
      expect(ours.list.map((r: any) => r.id)).toContain(idOf());
    });
  }

  it("does not show another tenant's users to a keyword search", async () => {
    const res = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${home.user.username}`, {
        token: other.token,
      }),
    );
    expect(res).toMatchObject({ total: 0, list: [] });
  });

  it("leaves another tenant's departments out of the tree", async () => {
    const mine = await createDepartment(platform, other.token);
    const tree = dataOf(
      await platform.call('GET', '/api/v1/departments/tree', { token: other.token }),
    );
    const ids = JSON.stringify(tree).match(/"id":\d+/g);
    expect(ids).toEqual([`"id":${mine.id}`]);
  });

  it("refuses another tenant's department, roles and leader as references", async () => {
    const user = await platform.call('POST', '/api/v1/users', {
      token: other.token,
      body: {
        username: uniq('user'),
        password: PASSWORD,
        dept_id: home.dept.id,
        role_ids: [home.role.id],
      },
    });
    expect(user.status).toBe(400);
    expect(user.body.code).toBe(40001);
    expect(user.body.data.fields.map((f: any) => f.field)).toEqual(['dept_id', 'role_ids.0']);

    const dept = await platform.call('POST', '/api/v1/departments', {
      token: other.token,
      body: { name: uniq('d'), parent_id: home.dept.id, leader_id: home.user.id },
    });
    expect(dept.status).toBe(400);
    expect(dept.body.data.fields.map((f: any) => f.field)).toEqual(['parent_id', 'leader_id']);

    const mine = await createUser(platform, other.token);
    const assign = await platform.call('PUT', `/api/v1/users/${mine.id}`, {
      token: other.token,
      body: { role_ids: [home.role.id] },
    });
    expect(assign.status).toBe(400);
    expect(assign.body.data.fields.map((f: any) => f.field)).toEqual(['role_ids.0']);
  });

  it('allows the same username and role code in two tenants', async () => {
    const user = await createUser(platform, other.token, { username: home.user.username });
    expect(user.tenant_id).toBe(other.tenant.id);
    const role = await createRole(platform, other.token, [], { code: home.role.code });
    expect(role.tenant_id).toBe(other.tenant.id);
    // Each signs in within their own tenant.
    const theirs = await platform.login(home.user.username, PASSWORD, other.tenant.code);
    expect(theirs.user.id).toBe(user.id);
    const ours = await platform.login(home.user.username, PASSWORD);
    expect(ours.user.id).toBe(home.user.id);
  });
});

describe('a tenant_id in the query string', () => {
  /** Lists whose rows carry `tenant_id`; each tenant has rows in every one of them. */
  const LISTS = [
    'users',
    'roles',
    'departments',
    'operation-logs',
    'login-logs',
    'logs/audit',
  ] as const;
  /** Rows whose set does not move between two reads (logs grow with every request). */
  const STABLE = new Set<string>(['users', 'roles', 'departments']);

  /**
   * Lists `resource` as `token`'s caller, with and without `tenant_id=<victim>`: the parameter
   * changes nothing, every row is the caller's tenant's (or, for a platform admin's logs, of no
   * tenant), none of `victimIds` appears, and their details are 404.
   */
  async function expectIgnored(
    token: string,
    own: number,
    victim: number,
    victimIds: Partial<Record<string, number>>,
    /** A platform admin also reads the anonymous log entries, which have no tenant. */
    platformAdmin = false,
  ) {
    for (const resource of LISTS) {
      const path = `/api/v1/${resource}?page_size=100`;
      // Log entries land asynchronously (login logs within 10 s, through the broker on real
      // servers): wait until the caller's tenant has rows to list at all.
      let plain = dataOf(await platform.call('GET', path, { token }));
      for (
        const deadline = Date.now() + 15_000;
        plain.list.length === 0 && Date.now() < deadline;
      ) {
        await new Promise((r) => setTimeout(r, 200));
        plain = dataOf(await platform.call('GET', path, { token }));
      }
      const res = await platform.call('GET', `${path}&tenant_id=${victim}`, { token });
      const forged = dataOf(res);
      expect(forged.list.length, resource).toBeGreaterThan(0);
      for (const row of forged.list) {
        const allowed = platformAdmin ? [own, null] : [own];
        expect(allowed, `${resource} row ${row.id}`).toContain(row.tenant_id);
      }
      if (STABLE.has(resource)) {
        expect(
          forged.list.map((r: any) => r.id),
          resource,
        ).toEqual(plain.list.map((r: any) => r.id));
      }
      const victimId = victimIds[resource];
      if (victimId !== undefined) {
        expect(
          forged.list.map((r: any) => r.id),
          resource,
        ).not.toContain(victimId);
        const detail = await platform.call(
          'GET',
          `/api/v1/${resource}/${victimId}?tenant_id=${victim}`,
          { token },
        );
        expect([resource, detail.status, detail.body.code]).toEqual([resource, 404, 40400]);
      }
    }
  }

  it("is ignored on lists and details: a tenant admin sees only their own tenant's rows", async () => {
    // The other tenant writes rows of its own in each list (a department: an audit row too).
    await createDepartment(platform, other.token);
    await expectIgnored(other.token, other.tenant.id, 1, {
      users: home.user.id,
      roles: home.role.id,
      departments: home.dept.id,
    });
  });

  it("is ignored for a platform admin too: another tenant's rows never appear", async () => {
    const theirs = {
      users: other.adminId,
      roles: dataOf(
        await platform.call('GET', '/api/v1/roles?page_size=100', { token: other.token }),
      ).list[0].id,
      departments: (await createDepartment(platform, other.token)).id,
    };
    await expectIgnored(admin, 1, other.tenant.id, theirs, true);
  });
});
