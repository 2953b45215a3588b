import { expect } from 'vitest';
import { uniq, type TestPlatform } from '../helpers/platform.js';

/** A new tenant and its admin's token: holds `*` in that tenant, not a platform admin. */
export async function createTenant(platform: TestPlatform, adminToken: string) {
  const code = uniq('sy')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const password = 'System-Tenant-Admin-2026!';
  const res = await platform.call('POST', '/api/v1/tenants', {
    token: adminToken,
    body: { code, name: 'System tests', admin_username: 'boss', admin_password: password },
  });
  expect(res.status).toBe(200);
  const session = await platform.login('boss', password, code);
  return { id: res.body.data.id as number, code, token: session.access_token, session };
}

/** A user of `tenant` holding `permissions` (none: a plain user), signed in there. */
export async function createUserIn(
  platform: TestPlatform,
  tenant: { code: string; token: string },
  permissions: string[],
) {
  let roleIds: number[] = [];
  if (permissions.length > 0) {
    const role = await platform.call('POST', '/api/v1/roles', {
      token: tenant.token,
      body: { code: uniq('role').toLowerCase(), name: 'Test role', permissions },
    });
    expect(role.status).toBe(200);
    roleIds = [role.body.data.id];
  }
  const username = uniq('user');
  const password = 'Test-Passw0rd!';
  const user = await platform.call('POST', '/api/v1/users', {
    token: tenant.token,
    body: { username, password, role_ids: roleIds },
  });
  expect(user.status).toBe(200);
  const session = await platform.login(username, password, tenant.code);
  return { id: user.body.data.id as number, token: session.access_token };
}

/** Polls `probe` until it returns true or `timeoutMs` passes; returns the last verdict. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The business-audit rows of one record, newest first. */
export async function auditRowsOf(
  platform: TestPlatform,
  token: string,
  targetType: string,
  targetId: string | number,
) {
  const res = await platform.call(
    'GET',
    `/api/v1/logs/audit?target_type=${targetType}&target_id=${encodeURIComponent(String(targetId))}&page_size=100`,
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.data.list as Array<{ action: string; before: any; after: any }>;
}
