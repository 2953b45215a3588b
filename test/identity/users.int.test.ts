import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import {
  createDepartment,
  createRole,
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

const fieldsOf = (body: any) => (body.data.fields as { field: string }[]).map((f) => f.field);

describe('users: CRUD', () => {
  it('creates, reads, lists, updates and deletes a user', async () => {
    const dept = await createDepartment(platform, admin);
    const role = await createRole(platform, admin, ['system:user:list']);
    const username = uniq('alice');
    const created = dataOf(
      await platform.call('POST', '/api/v1/users', {
        token: admin,
        body: {
          username,
          password: PASSWORD,
          nickname: 'Alice',
          email: 'alice@example.org',
          dept_id: dept.id,
          role_ids: [role.id, role.id],
        },
      }),
    );
    expect(created).toMatchObject({
      tenant_id: 1,
      username,
      nickname: 'Alice',
      email: 'alice@example.org',
      dept_id: dept.id,
      status: 'active',
      is_platform_admin: false,
      // Created by an administrator: the user changes the password at first sign-in.
      must_change_password: true,
      role_ids: [role.id],
    });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const read = dataOf(
      await platform.call('GET', `/api/v1/users/${created.id}`, { token: admin }),
    );
    expect(read).toEqual(created);

    const list = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${username}`, { token: admin }),
    );
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(list.list[0]).toEqual(created);

    const updated = dataOf(
      await platform.call('PUT', `/api/v1/users/${created.id}`, {
        token: admin,
        body: { nickname: 'Alice B.', email: null, dept_id: null },
      }),
    );
    expect(updated).toMatchObject({
      username,
      nickname: 'Alice B.',
      email: null,
      dept_id: null,
      role_ids: [role.id],
    });

    dataOf(await platform.call('DELETE', `/api/v1/users/${created.id}`, { token: admin }));
    const gone = await platform.call('GET', `/api/v1/users/${created.id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(40400);
  });

  it('lets a created user sign in with the given password', async () => {
    const user = await createUser(platform, admin);
    const login = await platform.login(user.username, PASSWORD);
    expect(login.user.id).toBe(user.id);
  });

  it('replaces the role set and the password on a partial update', async () => {
    const first = await createRole(platform, admin, ['system:user:list']);
    const second = await createRole(platform, admin, ['system:role:list']);
    const user = await createUser(platform, admin, { role_ids: [first.id], nickname: 'Keep' });
    const newPassword = 'An0ther-Long-Secret';
    const updated = dataOf(
      await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { role_ids: [second.id], password: newPassword },
      }),
    );
    expect(updated.role_ids).toEqual([second.id]);
    expect(updated.nickname).toBe('Keep');
    await expect(platform.login(user.username, PASSWORD)).rejects.toThrow(/401/);
    const login = await platform.login(user.username, newPassword);
    expect(login.user.roles).toEqual([second.code]);
  });

  it('never returns a password hash', async () => {
    const user = await createUser(platform, admin);
    const responses = [
      await platform.call('GET', `/api/v1/users/${user.id}`, { token: admin }),
      await platform.call('GET', '/api/v1/users?page_size=100', { token: admin }),
      await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { password: 'Yet-An0ther-Secret' },
      }),
      await platform.call('POST', '/api/v1/users', {
        token: admin,
        body: { username: uniq('user'), password: PASSWORD },
      }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('password_hash');
      expect(res.text).not.toContain('$argon2');
    }
  });
});

describe('users: lists', () => {
  it('filters by keyword, status and department, ordered by id', async () => {
    const tag = uniq('flt');
    const dept = await createDepartment(platform, admin);
    const a = await createUser(platform, admin, { username: `${tag}_a`, dept_id: dept.id });
    const b = await createUser(platform, admin, { nickname: `Nick ${tag.toUpperCase()}` });
    const c = await createUser(platform, admin, { username: `${tag}_c`, status: 'disabled' });

    const byKeyword = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${tag}`, { token: admin }),
    );
    expect(byKeyword.list.map((u: any) => u.id)).toEqual([a.id, b.id, c.id]);
    expect(byKeyword.total).toBe(3);

    const disabled = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${tag}&status=disabled`, { token: admin }),
    );
    expect(disabled.list.map((u: any) => u.id)).toEqual([c.id]);

    const inDept = dataOf(
      await platform.call('GET', `/api/v1/users?dept_id=${dept.id}`, { token: admin }),
    );
    expect(inDept.list.map((u: any) => u.id)).toEqual([a.id]);

    const paged = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${tag}&page=2&page_size=2`, {
        token: admin,
      }),
    );
    expect(paged).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(paged.list.map((u: any) => u.id)).toEqual([c.id]);
  });

  it('matches % and _ in a keyword as literal text', async () => {
    const tag = uniq('pct');
    const literal = await createUser(platform, admin, { nickname: `100%_${tag}` });
    await createUser(platform, admin, { nickname: `100ab${tag}` });
    const res = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${encodeURIComponent(`0%_${tag}`)}`, {
        token: admin,
      }),
    );
    expect(res.list.map((u: any) => u.id)).toEqual([literal.id]);
    const percentOnly = dataOf(
      await platform.call('GET', '/api/v1/users?keyword=%25&page_size=100', { token: admin }),
    );
    expect(percentOnly.list.length).toBeGreaterThan(0);
    for (const u of percentOnly.list) expect(`${u.username}${u.nickname}`).toContain('%');
  });

  it('treats SQL injection strings in keyword as text', async () => {
    for (const keyword of ["' OR '1'='1", "x'; DROP TABLE iam_users; --", '\\', "%' OR 1=1 --"]) {
      const res = await platform.call(
        'GET',
        `/api/v1/users?keyword=${encodeURIComponent(keyword)}`,
        { token: admin },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ total: 0, list: [] });
    }
    expect((await platform.call('GET', '/api/v1/users', { token: admin })).status).toBe(200);
  });

  it('clamps page_size at 100 and refuses a page that is not a positive integer', async () => {
    const big = dataOf(
      await platform.call('GET', '/api/v1/users?page_size=1000', { token: admin }),
    );
    expect(big.page_size).toBe(100);
    for (const query of ['page=0', 'page=abc', 'page_size=-1', 'dept_id=x', 'status=gone']) {
      const res = await platform.call('GET', `/api/v1/users?${query}`, { token: admin });
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe(40000);
    }
  });
});

describe('users: rules', () => {
  it('reports every schema problem at once', async () => {
    const res = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: {
        username: 'x',
        password: 'password123',
        email: 'not-an-email',
        status: 'sleeping',
        role_ids: ['one'],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(fieldsOf(res.body).sort()).toEqual(
      ['email', 'password', 'role_ids.0', 'status', 'username'].sort(),
    );
  });

  it('reports an unknown department and unknown roles at once', async () => {
    const role = await createRole(platform, admin, []);
    const res = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: {
        username: uniq('user'),
        password: PASSWORD,
        dept_id: 999_999_999,
        role_ids: [role.id, 999_999_998, 999_999_999],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(fieldsOf(res.body)).toEqual(['dept_id', 'role_ids.1', 'role_ids.2']);
  });

  it('refuses a duplicate username in the tenant', async () => {
    const user = await createUser(platform, admin);
    const again = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username: user.username, password: PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(40900);
    const other = await createUser(platform, admin);
    const rename = await platform.call('PUT', `/api/v1/users/${other.id}`, {
      token: admin,
      body: { username: user.username },
    });
    expect(rename.status).toBe(409);
    expect(rename.body.code).toBe(40900);
  });

  raceIt('creates a username once when several requests race for it, never a 5xx', async () => {
    const username = uniq('race');
    // Every insert into the tenant checks its foreign key with a key-share lock on the tenant row:
    // holding that row makes the requests wait together, then run at once.
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT id FROM iam_tenants WHERE id = $1 FOR UPDATE',
      [1],
      () =>
        Promise.all(
          Array.from({ length: 4 }, () =>
            platform.call('POST', '/api/v1/users', {
              token: admin,
              body: { username, password: PASSWORD },
            }),
          ),
        ),
      4,
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const list = dataOf(
      await platform.call('GET', `/api/v1/users?keyword=${username}`, { token: admin }),
    );
    expect(list.total).toBe(1);
  });

  it('answers a non-integer id with 400 and an unknown id with 404', async () => {
    for (const id of ['abc', '1.5', '-1', '0', '1e3']) {
      const res = await platform.call('GET', `/api/v1/users/${id}`, { token: admin });
      expect(res.status, id).toBe(400);
      expect(res.body.code, id).toBe(40000);
    }
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await platform.call(method, '/api/v1/users/987654321', {
        token: admin,
        ...(method === 'PUT' ? { body: { nickname: 'x' } } : {}),
      });
      expect(res.status, method).toBe(404);
      expect(res.body.code, method).toBe(40400);
    }
  });

  it('refuses to delete or disable your own account', async () => {
    const me = dataOf(await platform.call('GET', '/api/v1/me', { token: admin }));
    const del = await platform.call('DELETE', `/api/v1/users/${me.id}`, { token: admin });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe(40900);
    const disable = await platform.call('PUT', `/api/v1/users/${me.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(disable.status).toBe(409);
    expect(disable.body.code).toBe(40900);
  });

  it("refuses a disabled user's existing access token on the next request", async () => {
    const user = await createUser(platform, admin);
    const { access_token: token } = await platform.login(user.username, PASSWORD);
    expect((await platform.call('GET', '/api/v1/me', { token })).status).toBe(200);
    dataOf(
      await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { status: 'disabled' },
      }),
    );
    const refused = await platform.call('GET', '/api/v1/me', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(40100);
    // The right password of a disabled account gets the answer of a wrong one.
    const login = (password: string) =>
      platform.call('POST', '/api/v1/login', { body: { username: user.username, password } });
    const right = await login(PASSWORD);
    const wrong = await login('Not-The-Passw0rd');
    expect(right.status).toBe(401);
    expect(right.body).toEqual({ code: 40103, message: wrong.body.message, data: null });
    expect(wrong.body).toEqual(right.body);
  });

  it("refuses a deleted user's existing access token on the next request", async () => {
    const user = await createUser(platform, admin);
    const { access_token: token } = await platform.login(user.username, PASSWORD);
    expect((await platform.call('GET', '/api/v1/me', { token })).status).toBe(200);
    dataOf(await platform.call('DELETE', `/api/v1/users/${user.id}`, { token: admin }));
    expect((await platform.call('GET', '/api/v1/me', { token })).status).toBe(401);
  });

  it('needs the permission code of each operation', async () => {
    const target = await createUser(platform, admin);
    const { token } = await signedInUserWith(platform, admin, ['system:dept:list']);
    const attempts = [
      platform.call('GET', '/api/v1/users', { token }),
      platform.call('GET', `/api/v1/users/${target.id}`, { token }),
      platform.call('POST', '/api/v1/users', { token, body: { username: 'x' } }),
      platform.call('PUT', `/api/v1/users/${target.id}`, { token, body: { nickname: 'x' } }),
      platform.call('DELETE', `/api/v1/users/${target.id}`, { token }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(40300);
    }
  });

  it('lets only a platform administrator change or delete a platform administrator', async () => {
    const me = dataOf(await platform.call('GET', '/api/v1/me', { token: admin }));
    const { token } = await signedInUserWith(platform, admin, ['system:user:*']);
    const change = await platform.call('PUT', `/api/v1/users/${me.id}`, {
      token,
      body: { password: 'Hijacked-Passw0rd' },
    });
    expect(change.status).toBe(403);
    expect(change.body.code).toBe(40300);
    const del = await platform.call('DELETE', `/api/v1/users/${me.id}`, { token });
    expect(del.status).toBe(403);
    expect((await platform.call('GET', '/api/v1/me', { token: admin })).status).toBe(200);
  });
});
