import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionCatalogue } from '../../src/start.js';

const PERMISSIONS = permissionCatalogue();
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith, LEAVE_FORM, singleApproval } from '../bpm/fixtures.js';

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
    expect(res.body.data).toEqual(PERMISSIONS.map((p) => ({ ...p, routes: [...p.routes] })));
    expect(res.body.data.map((p: any) => p.code)).toContain('system:role:update');
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

  it('guards each listed route with its code: a user holding every other code is refused', async () => {
    // Tenant, menu, package, monitor and code generator routes, and the system service's
    // platform-wide ones (error texts, templates, certificates), admit platform administrators
    // only, before the code is checked (test/monitor and test/codegen check those codes).
    const platformOnly = (code: string) =>
      [
        'system:tenant:',
        'system:menu:',
        'system:package:',
        'system:error-text:',
        'system:template:',
        'system:cert:',
        'system:codegen:',
        'monitor:',
      ].some((p) => code.startsWith(p));
    for (const permission of PERMISSIONS) {
      if (platformOnly(permission.code)) continue;
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
  });
});
