import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, type ApiResponse, type TestPlatform } from '../helpers/platform.js';
import {
  createRole,
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

function refused(res: ApiResponse, code: 40300 | 40301) {
  expect(res.status, res.text).toBe(403);
  expect(res.body.code).toBe(code);
}

async function superAdminRole(token: string) {
  const roles = dataOf(await platform.call('GET', '/api/v1/roles?keyword=super_admin', { token }));
  return roles.list.find((r: { code: string }) => r.code === 'super_admin');
}

const userOf = async (token: string, id: number) =>
  dataOf(await platform.call('GET', `/api/v1/users/${id}`, { token }));

describe('grants stay within the grantor', () => {
  it('refuses a user with only system:user:update putting themselves into super_admin', async () => {
    const { user, token } = await signedInUserWith(platform, admin, ['system:user:update']);
    const star = await superAdminRole(admin);
    const res = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token,
      body: { role_ids: [...user.role_ids, star.id] },
    });
    refused(res, 40301);
    expect((await userOf(admin, user.id)).role_ids).toEqual(user.role_ids);
  });

  it('refuses giving another user a role with codes the grantor does not hold (40300)', async () => {
    const { token } = await signedInUserWith(platform, admin, ['system:user:*']);
    const other = await createUser(platform, admin);
    const star = await superAdminRole(admin);
    const strong = await createRole(platform, admin, ['system:role:update', 'system:user:list']);
    for (const roleId of [star.id, strong.id]) {
      const res = await platform.call('PUT', `/api/v1/users/${other.id}`, {
        token,
        body: { role_ids: [roleId] },
      });
      refused(res, 40300);
    }
    const created = await platform.call('POST', '/api/v1/users', {
      token,
      body: { username: `x${Date.now()}`, password: PASSWORD, role_ids: [star.id] },
    });
    refused(created, 40300);
    expect(created.body.data.permissions).toEqual(['*']);
    expect((await userOf(admin, other.id)).role_ids).toEqual([]);
  });

  it('lets a grantor give a role whose codes they hold, a prefix grant included', async () => {
    const { token } = await signedInUserWith(platform, admin, [
      'system:user:*',
      'system:dept:list',
    ]);
    const other = await createUser(platform, admin);
    const within = await createRole(platform, admin, ['system:user:list', 'system:dept:list']);
    const res = await platform.call('PUT', `/api/v1/users/${other.id}`, {
      token,
      body: { role_ids: [within.id] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.role_ids).toEqual([within.id]);
  });

  it('refuses adding * to a role the caller holds, and to any role without holding *', async () => {
    const { role, token } = await signedInUserWith(platform, admin, [
      'system:role:update',
      'system:role:list',
    ]);
    const own = await platform.call('PUT', `/api/v1/roles/${role.id}`, {
      token,
      body: { permissions: ['*'] },
    });
    refused(own, 40301);
    // Even a harmless rename: nobody edits a role they hold without *.
    refused(
      await platform.call('PUT', `/api/v1/roles/${role.id}`, { token, body: { name: 'Mine' } }),
      40301,
    );
    const other = await createRole(platform, admin, ['system:dept:list']);
    const escalate = await platform.call('PUT', `/api/v1/roles/${other.id}`, {
      token,
      body: { permissions: ['system:dept:list', '*'] },
    });
    refused(escalate, 40300);
    expect(escalate.body.data.permissions).toEqual(['*']);
    const after = dataOf(await platform.call('GET', `/api/v1/roles/${role.id}`, { token: admin }));
    expect(after.permissions).toEqual(['system:role:list', 'system:role:update']);
    const otherAfter = dataOf(
      await platform.call('GET', `/api/v1/roles/${other.id}`, { token: admin }),
    );
    expect(otherAfter.permissions).toEqual(['system:dept:list']);
  });

  it('lets a role editor add only codes they hold, and keep codes already there', async () => {
    const { token } = await signedInUserWith(platform, admin, [
      'system:role:*',
      'system:dept:list',
    ]);
    const other = await createRole(platform, admin, ['system:log:audit']);
    const res = await platform.call('PUT', `/api/v1/roles/${other.id}`, {
      token,
      body: { permissions: ['system:log:audit', 'system:dept:list'] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.permissions).toEqual(['system:dept:list', 'system:log:audit']);
  });

  it('refuses creating a role with codes the caller does not hold', async () => {
    const { token } = await signedInUserWith(platform, admin, ['system:role:create']);
    const res = await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: `r${Date.now()}`, name: 'Too much', permissions: ['system:user:delete'] },
    });
    refused(res, 40300);
    expect(res.body.data.permissions).toEqual(['system:user:delete']);
    const fine = await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: `r${Date.now()}`, name: 'Same', permissions: ['system:role:create'] },
    });
    expect(fine.status, fine.text).toBe(200);
  });

  it('refuses emptying or deleting super_admin of the default tenant to anyone but a platform admin', async () => {
    const { token } = await signedInUserWith(platform, admin, ['system:role:*']);
    const star = await superAdminRole(admin);
    refused(
      await platform.call('PUT', `/api/v1/roles/${star.id}`, { token, body: { permissions: [] } }),
      40301,
    );
    refused(await platform.call('DELETE', `/api/v1/roles/${star.id}`, { token }), 40301);
    expect((await superAdminRole(admin)).permissions).toEqual(['*']);
    // The platform administrator still administers tenants and roles.
    expect((await platform.call('GET', '/api/v1/tenants', { token: admin })).status).toBe(200);
  });
});

describe('the last holder of * keeps it', () => {
  async function tenantWithHelper() {
    const tenant = await createTenantWithAdmin(platform, admin);
    const star = await superAdminRole(tenant.token);
    const helper = await signedInUserWith(
      platform,
      tenant.token,
      ['system:user:*', 'system:role:*'],
      tenant.tenant.code,
    );
    return { ...tenant, star, helper };
  }

  it('refuses taking * out of the only role that carries it', async () => {
    const { token, star } = await tenantWithHelper();
    refused(
      await platform.call('PUT', `/api/v1/roles/${star.id}`, {
        token,
        body: { permissions: ['system:user:list'] },
      }),
      40301,
    );
    refused(await platform.call('DELETE', `/api/v1/roles/${star.id}`, { token }), 40301);
    expect((await superAdminRole(token)).permissions).toEqual(['*']);
  });

  it('refuses the last holder dropping their own super_admin role', async () => {
    const { token, adminId } = await tenantWithHelper();
    refused(
      await platform.call('PUT', `/api/v1/users/${adminId}`, { token, body: { role_ids: [] } }),
      40301,
    );
    const me = dataOf(await platform.call('GET', '/api/v1/me', { token }));
    expect(me.permissions).toEqual(['*']);
  });

  it('refuses disabling, deleting or un-roling the last holder, and allows it when another holds *', async () => {
    const { token, adminId, star, helper } = await tenantWithHelper();
    for (const res of [
      await platform.call('PUT', `/api/v1/users/${adminId}`, {
        token: helper.token,
        body: { status: 'disabled' },
      }),
      await platform.call('PUT', `/api/v1/users/${adminId}`, {
        token: helper.token,
        body: { role_ids: [] },
      }),
      await platform.call('DELETE', `/api/v1/users/${adminId}`, { token: helper.token }),
      await platform.call('DELETE', `/api/v1/roles/${star.id}`, { token: helper.token }),
    ]) {
      refused(res, 40301);
    }
    const still = await userOf(token, adminId);
    expect(still).toMatchObject({ status: 'active', role_ids: [star.id] });

    // A second holder of * (granted by the first, who holds everything): now one may go.
    const second = await createUser(platform, token, { role_ids: [star.id] });
    const disabled = await platform.call('PUT', `/api/v1/users/${adminId}`, {
      token,
      body: { role_ids: [] },
    });
    expect(disabled.status, disabled.text).toBe(200);
    refused(
      await platform.call('PUT', `/api/v1/users/${second.id}`, {
        token: helper.token,
        body: { status: 'disabled' },
      }),
      40301,
    );
  });

  raceIt('lets only one of two concurrent disables of the last two holders through', async () => {
    const { token, adminId, star, helper, tenant } = await tenantWithHelper();
    // Only a holder of * may disable one (a user admin holding less may not touch them at all):
    // the two holders disable each other.
    const second = await createUser(platform, token, { role_ids: [star.id] });
    const secondToken = (await platform.login(second.username, PASSWORD, tenant.code)).access_token;
    const disable = (actor: string, id: number) =>
      platform.call('PUT', `/api/v1/users/${id}`, { token: actor, body: { status: 'disabled' } });
    // On PostgreSQL both requests wait on the tenant's lock, then contend; PGlite runs them in
    // turn, and the second may then find its caller disabled already (401).
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
      [`iam:star-holders:${tenant.id}`],
      () => Promise.all([disable(token, second.id), disable(secondToken, adminId)]),
      2,
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const loser = results.find((r) => r.status !== 200)!;
    if (platform.settings.database.url)
      expect([loser.status, loser.body.code]).toEqual([403, 40301]);
    else expect([401, 403]).toContain(loser.status);
    // Read as the helper: the tenant admin's own token dies if they were the one disabled.
    const after = [await userOf(helper.token, adminId), await userOf(helper.token, second.id)];
    expect(after.map((u: { status: string }) => u.status).sort()).toEqual(['active', 'disabled']);
  });
});
