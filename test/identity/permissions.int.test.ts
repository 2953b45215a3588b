import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionCatalogue } from '../../src/start.js';

const PERMISSIONS = permissionCatalogue();
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith, LEAVE_FORM, singleApproval } from '../bpm/fixtures.js';
import { createTenantWithAdmin } from './identity-fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
});

const createRole = (permissions: string[]) =>
  platform.call('POST', '/api/v1/roles', {
    token: admin,
    body: { code: uniq('perm').toLowerCase(), name: 'Catalogue check', permissions },
  });

/**
 * Bodies that pass validation, for the routes that check their permission after it (BPM's
 * pre-handlers, the service's check of a password); the others are refused before the body is
 * read.
 */
const definition = () => ({
  key: uniq('perm').toLowerCase().replace(/_/g, '-'),
  name: 'Catalogue check',
  form_mode: 'flow',
  form_schema: LEAVE_FORM,
  node_tree: singleApproval([1]),
});
const BODIES: Record<string, () => unknown> = {
  'POST /api/v1/bpm/definitions': definition,
  'PUT /api/v1/bpm/definitions/:id': definition,
  'POST /api/v1/bpm/definitions/:id/simulate': () => ({ form: {} }),
  // A password: system:user:reset-password is checked only when the body sets one.
  'PUT /api/v1/users/:id': () => ({ password: 'Catalogue-Check-2026' }),
};

describe('permission catalogue', () => {
  it('lists every code with its description and routes to a signed-in user', async () => {
    const user = await createUserWith(platform, []);
    const res = await platform.call('GET', '/api/v1/permissions', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data).toEqual(
      PERMISSIONS.map((p) => ({
        code: p.code,
        description: p.description,
        routes: [...p.routes],
        platform_only: p.platformOnly === true,
      })),
    );
    const byCode = new Map(res.body.data.map((p: any) => [p.code, p.platform_only]));
    expect([byCode.get('system:role:update'), byCode.get('system:tenant:update')]).toEqual([
      false,
      true,
    ]);
  });

  it('refuses an anonymous caller', async () => {
    const res = await platform.call('GET', '/api/v1/permissions');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40100);
  });

  it('refuses a role granting a code that is not in the catalogue, and creates nothing', async () => {
    const code = uniq('unknown').toLowerCase();
    const res = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code, name: 'Unknown', permissions: ['system:user:list', 'system:user:fly'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields).toEqual([expect.objectContaining({ field: 'permissions.1' })]);
    const list = await platform.call('GET', `/api/v1/roles?keyword=${code}`, { token: admin });
    expect(list.body.data.total).toBe(0);
  });

  it('refuses an update to a code that is not in the catalogue, and keeps the role', async () => {
    const created = await createRole(['system:user:list']);
    expect(created.status).toBe(200);
    const res = await platform.call('PUT', `/api/v1/roles/${created.body.data.id}`, {
      token: admin,
      body: { permissions: ['bpm:nothing:here'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    const after = await platform.call('GET', `/api/v1/roles/${created.body.data.id}`, {
      token: admin,
    });
    expect(after.body.data.permissions).toEqual(['system:user:list']);
  });

  it('grants `*`, catalogue codes and a `prefix:*` covering catalogue codes, not an empty prefix', async () => {
    const good = await createRole(['*', 'system:log:*', 'bpm:definition:publish']);
    expect(good.status).toBe(200);
    expect(good.body.data.permissions).toEqual(['*', 'bpm:definition:publish', 'system:log:*']);
    const bad = await createRole(['nothing:*']);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40001);
  });

  // A user per catalogue code (a hundred sign-ins): 20 s on a quiet machine.
  it(
    'guards each listed route with its code: a user holding every other code is refused',
    { timeout: 90_000 },
    async () => {
      // Platform-only codes' routes admit platform administrators only, before the code is checked
      // (each service's own tests check those codes with platform administrators).
      for (const permission of PERMISSIONS) {
        if (permission.platformOnly) continue;
        const others = PERMISSIONS.map((p) => p.code).filter((c) => c !== permission.code);
        const user = await createUserWith(platform, others, admin);
        for (const route of permission.routes) {
          const [method, path] = route.split(' ') as [string, string];
          const res = await platform.call(method, path.replace(':id', '1'), {
            token: user.token,
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: BODIES[route]?.() ?? {} }),
          });
          expect([route, res.status, res.body.message]).toEqual([
            route,
            403,
            `permission ${permission.code} required`,
          ]);
        }
      }
    },
  );
});

describe('platform-only codes', () => {
  it("refuse a tenant's administrator (who holds `*`) on every route, before the code is read", async () => {
    const tenant = await createTenantWithAdmin(platform, admin);
    const platformOnly = PERMISSIONS.filter((p) => p.platformOnly);
    expect(platformOnly.map((p) => p.code)).toEqual(
      expect.arrayContaining(['system:tenant:list', 'system:cert:list', 'monitor:alert:list']),
    );
    for (const permission of platformOnly) {
      for (const route of permission.routes) {
        // Exists only where CODEGEN_WRITE_ENABLED=true (test/codegen).
        if (route === 'POST /api/v1/codegen/write') continue;
        const [method, path] = route.split(' ') as [string, string];
        const res = await platform.call(
          method,
          path.replace(':id', '1').replace(':code', '40400'),
          {
            token: tenant.token,
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          },
        );
        expect([route, res.status, res.body.code]).toEqual([route, 403, 40300]);
      }
    }
  });
});
