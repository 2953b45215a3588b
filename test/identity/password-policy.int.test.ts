import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestPlatform,
  uniq,
  type ApiResponse,
  type TestPlatform,
} from '../helpers/platform.js';
import { createUser, dataOf, PASSWORD } from './identity-fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

function refusedPassword(res: ApiResponse, field: string, why: RegExp) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe(40001);
  expect(res.body.data.fields).toContainEqual(
    expect.objectContaining({ field, message: expect.stringMatching(why) }),
  );
}

describe('password policy', () => {
  it('refuses a short or guessable password for a new user, naming the field and why', async () => {
    const short = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username: uniq('user'), password: 'Xk9#qLm2!' },
    });
    refusedPassword(short, 'password', /at least 10 characters/);
    const common = await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username: uniq('user'), password: 'Password123!' },
    });
    refusedPassword(common, 'password', /too easy to guess/);
  });

  it('refuses a weak password set by an administrator and for a new tenant administrator', async () => {
    const user = await createUser(platform, admin);
    refusedPassword(
      await platform.call('PUT', `/api/v1/users/${user.id}`, {
        token: admin,
        body: { password: 'qwertyuiop123' },
      }),
      'password',
      /too easy to guess/,
    );
    const tenant = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: {
        code: uniq('t').toLowerCase(),
        name: 'T',
        admin_username: 'boss',
        admin_password: 'password1234',
      },
    });
    refusedPassword(tenant, 'admin_password', /too easy to guess/);
  });

  it('refuses a weak new password on a change, and one like the username', async () => {
    const user = await createUser(platform, admin);
    const { access_token: token } = await platform.login(user.username, PASSWORD);
    for (const weak of ['iloveyou2024', `${user.username}`]) {
      refusedPassword(
        await platform.call('POST', '/api/v1/me/password', {
          token,
          body: { old_password: PASSWORD, new_password: weak },
        }),
        'new_password',
        /too easy to guess|at least 10/,
      );
    }
  });

  it('makes a tenant’s first administrator change the password at first sign-in', async () => {
    const code = uniq('t').toLowerCase();
    const created = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code, name: 'T', admin_username: 'boss', admin_password: PASSWORD },
    });
    expect(created.status, created.text).toBe(200);
    const first = await platform.login('boss', PASSWORD, code, { keepPasswordChange: true });
    expect(first.user.must_change_password).toBe(true);
    const users = await platform.call('GET', '/api/v1/users', { token: first.access_token });
    expect(users.status).toBe(403);
    expect(users.body.code).toBe(40302);
  });

  it('refuses an administrator setting their own password without the old one', async () => {
    const me = dataOf(await platform.call('GET', '/api/v1/me', { token: admin }));
    const res = await platform.call('PUT', `/api/v1/users/${me.id}`, {
      token: admin,
      body: { password: 'Corr3ct-Horse-Battery' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(40301);
    expect((await platform.login('admin', 'admin123')).user.must_change_password).toBe(false);
  });
});
