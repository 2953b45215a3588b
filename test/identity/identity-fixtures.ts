import { uniq, type ApiResponse, type TestPlatform } from '../helpers/platform.js';

/** A password no weak-secret check refuses. */
export const PASSWORD = 'Corr3ct-Horse-Battery';

/** The `data` of a 200 answer; anything else fails the test with the whole answer. */
export function dataOf<T = any>(res: ApiResponse): T {
  if (res.status !== 200 || res.body?.code !== 200) {
    throw new Error(`expected 200, got ${res.status}: ${res.text}`);
  }
  return res.body.data as T;
}

export async function createRole(
  platform: TestPlatform,
  token: string,
  permissions: string[],
  extra: Record<string, unknown> = {},
) {
  const code = uniq('role');
  return dataOf(
    await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code, name: `Role ${code}`, permissions, ...extra },
    }),
  );
}

export async function createUser(
  platform: TestPlatform,
  token: string,
  extra: Record<string, unknown> = {},
) {
  return dataOf(
    await platform.call('POST', '/api/v1/users', {
      token,
      body: { username: uniq('user'), password: PASSWORD, ...extra },
    }),
  );
}

export async function createDepartment(
  platform: TestPlatform,
  token: string,
  extra: Record<string, unknown> = {},
) {
  return dataOf(
    await platform.call('POST', '/api/v1/departments', {
      token,
      body: { name: uniq('dept'), ...extra },
    }),
  );
}

/** A new user holding one new role with `permissions`, signed in. */
export async function signedInUserWith(
  platform: TestPlatform,
  adminToken: string,
  permissions: string[],
  tenantCode?: string,
) {
  const role = await createRole(platform, adminToken, permissions);
  const user = await createUser(platform, adminToken, { role_ids: [role.id] });
  const { access_token: token } = await platform.login(user.username, PASSWORD, tenantCode);
  return { role, user, token: token as string };
}

/** A new tenant (through the API, as the platform admin) and its signed-in administrator. */
export async function createTenantWithAdmin(platform: TestPlatform, adminToken: string) {
  const code = uniq('tenant');
  const adminUsername = uniq('boss');
  const tenant = dataOf(
    await platform.call('POST', '/api/v1/tenants', {
      token: adminToken,
      body: {
        code,
        name: `Tenant ${code}`,
        admin_username: adminUsername,
        admin_password: PASSWORD,
      },
    }),
  );
  const login = await platform.login(adminUsername, PASSWORD, code);
  return { tenant, adminUsername, adminId: login.user.id, token: login.access_token };
}
