import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createDepartment, createUser, dataOf, signedInUserWith } from './identity-fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
});

const move = (id: number, parentId: number | null) =>
  platform.call('PUT', `/api/v1/departments/${id}`, {
    token: admin,
    body: { parent_id: parentId },
  });

describe('departments: CRUD', () => {
  it('creates, reads, lists, updates and deletes a department', async () => {
    const leader = await createUser(platform, admin);
    const parent = await createDepartment(platform, admin);
    const name = uniq('Sales');
    const created = dataOf(
      await platform.call('POST', '/api/v1/departments', {
        token: admin,
        body: { name, parent_id: parent.id, leader_id: leader.id, sort: 5 },
      }),
    );
    expect(created).toMatchObject({
      tenant_id: 1,
      name,
      parent_id: parent.id,
      leader_id: leader.id,
      sort: 5,
    });
    expect(created.created_at).toMatch(/Z$/);

    expect(
      dataOf(await platform.call('GET', `/api/v1/departments/${created.id}`, { token: admin })),
    ).toEqual(created);
    const children = dataOf(
      await platform.call('GET', `/api/v1/departments?parent_id=${parent.id}`, { token: admin }),
    );
    expect(children).toMatchObject({ total: 1, list: [created] });

    const updated = dataOf(
      await platform.call('PUT', `/api/v1/departments/${created.id}`, {
        token: admin,
        body: { name: `${name} EMEA`, leader_id: null, parent_id: null, sort: 1 },
      }),
    );
    expect(updated).toMatchObject({
      name: `${name} EMEA`,
      leader_id: null,
      parent_id: null,
      sort: 1,
    });

    const roots = dataOf(
      await platform.call('GET', '/api/v1/departments?parent_id=0&page_size=100', {
        token: admin,
      }),
    );
    expect(roots.list.map((d: any) => d.id)).toContain(created.id);
    for (const d of roots.list) expect(d.parent_id).toBeNull();

    dataOf(await platform.call('DELETE', `/api/v1/departments/${created.id}`, { token: admin }));
    const gone = await platform.call('GET', `/api/v1/departments/${created.id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(40400);
  });

  it("returns the tenant's departments as a tree ordered by sort, then id", async () => {
    const root = await createDepartment(platform, admin, { sort: 1 });
    const late = await createDepartment(platform, admin, { parent_id: root.id, sort: 2 });
    const early = await createDepartment(platform, admin, { parent_id: root.id, sort: 1 });
    const grandchild = await createDepartment(platform, admin, { parent_id: late.id });
    const tree = dataOf(await platform.call('GET', '/api/v1/departments/tree', { token: admin }));
    const node = tree.find((n: any) => n.id === root.id);
    expect(node.children.map((c: any) => c.id)).toEqual([early.id, late.id]);
    expect(node.children[1].children).toEqual([{ ...grandchild, children: [] }]);
    for (const top of tree) expect(top.parent_id).toBeNull();
  });
});

describe('departments: rules', () => {
  it('reports an unknown parent and an unknown leader at once', async () => {
    const res = await platform.call('POST', '/api/v1/departments', {
      token: admin,
      body: { name: uniq('d'), parent_id: 999_999_999, leader_id: 999_999_998 },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields.map((f: any) => f.field)).toEqual(['parent_id', 'leader_id']);
  });

  it('reports every schema problem at once', async () => {
    const res = await platform.call('POST', '/api/v1/departments', {
      token: admin,
      body: { name: '', parent_id: 'x', sort: 1.5 },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields.map((f: any) => f.field).sort()).toEqual([
      'name',
      'parent_id',
      'sort',
    ]);
  });

  it('refuses to move a department under itself or one of its descendants', async () => {
    const a = await createDepartment(platform, admin);
    const b = await createDepartment(platform, admin, { parent_id: a.id });
    const c = await createDepartment(platform, admin, { parent_id: b.id });
    for (const target of [a.id, b.id, c.id]) {
      const res = await move(a.id, target);
      expect(res.status, String(target)).toBe(400);
      expect(res.body.code).toBe(40001);
      expect(res.body.data.fields).toEqual([expect.objectContaining({ field: 'parent_id' })]);
    }
    // Moving a sub-tree elsewhere is fine: c goes to the top level, then a under c.
    expect((await move(c.id, null)).status).toBe(200);
    expect(dataOf(await move(a.id, c.id)).parent_id).toBe(c.id);
  });

  raceIt('lets only one of two crossing moves through, so no cycle can form', async () => {
    const a = await createDepartment(platform, admin);
    const b = await createDepartment(platform, admin);
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT id FROM iam_departments WHERE id = ANY($1) FOR UPDATE',
      [[a.id, b.id]],
      () => Promise.all([move(a.id, b.id), move(b.id, a.id)]),
      2,
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const after = await Promise.all(
      [a, b].map(async (d) =>
        dataOf(await platform.call('GET', `/api/v1/departments/${d.id}`, { token: admin })),
      ),
    );
    expect(after.filter((d) => d.parent_id !== null)).toHaveLength(1);
  });

  it('refuses to delete a department with sub-departments or members', async () => {
    const parent = await createDepartment(platform, admin);
    const child = await createDepartment(platform, admin, { parent_id: parent.id });
    const withChildren = await platform.call('DELETE', `/api/v1/departments/${parent.id}`, {
      token: admin,
    });
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.code).toBe(40900);

    const member = await createUser(platform, admin, { dept_id: child.id });
    const withMembers = await platform.call('DELETE', `/api/v1/departments/${child.id}`, {
      token: admin,
    });
    expect(withMembers.status).toBe(409);
    expect(withMembers.body.code).toBe(40900);

    dataOf(await platform.call('DELETE', `/api/v1/users/${member.id}`, { token: admin }));
    dataOf(await platform.call('DELETE', `/api/v1/departments/${child.id}`, { token: admin }));
    dataOf(await platform.call('DELETE', `/api/v1/departments/${parent.id}`, { token: admin }));
  });

  it('clears the leader when the leading user is deleted', async () => {
    const leader = await createUser(platform, admin);
    const dept = await createDepartment(platform, admin, { leader_id: leader.id });
    dataOf(await platform.call('DELETE', `/api/v1/users/${leader.id}`, { token: admin }));
    const after = dataOf(
      await platform.call('GET', `/api/v1/departments/${dept.id}`, { token: admin }),
    );
    expect(after.leader_id).toBeNull();
  });

  it('needs the permission code of each operation', async () => {
    const dept = await createDepartment(platform, admin);
    const { token, role } = await signedInUserWith(platform, admin, ['system:user:list']);
    const attempts = [
      platform.call('GET', '/api/v1/departments', { token }),
      platform.call('GET', '/api/v1/departments/tree', { token }),
      platform.call('GET', `/api/v1/departments/${dept.id}`, { token }),
      platform.call('POST', '/api/v1/departments', { token, body: { name: 'x' } }),
      platform.call('PUT', `/api/v1/departments/${dept.id}`, { token, body: { name: 'x' } }),
      platform.call('DELETE', `/api/v1/departments/${dept.id}`, { token }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(40300);
    }
    dataOf(
      await platform.call('PUT', `/api/v1/roles/${role.id}`, {
        token: admin,
        body: { permissions: ['system:dept:list'] },
      }),
    );
    expect((await platform.call('GET', '/api/v1/departments/tree', { token })).status).toBe(200);
  });

  it('answers a non-integer id with 400 and an unknown one with 404', async () => {
    const bad = await platform.call('GET', '/api/v1/departments/abc', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40000);
    const badFilter = await platform.call('GET', '/api/v1/departments?parent_id=-3', {
      token: admin,
    });
    expect(badFilter.status).toBe(400);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await platform.call(method, '/api/v1/departments/987654321', {
        token: admin,
        ...(method === 'PUT' ? { body: { name: 'x' } } : {}),
      });
      expect(res.status, method).toBe(404);
    }
  });
});
