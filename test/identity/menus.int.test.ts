import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUserWith } from '../bpm/fixtures.js';
import { createTenantWithAdmin } from './identity-fixtures.js';

// Menus: the console's navigation tree; each user gets the entries their codes allow.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const flatten = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const paths = (nodes: any[]) => flatten(nodes).map((n) => n.path ?? n.name);

describe('GET /api/v1/menus/my', () => {
  it('gives a user without codes the approval pages only, and no empty directory', async () => {
    const user = await createUserWith(platform, []);
    const res = await platform.call('GET', '/api/v1/menus/my', { token: user.token });
    expect(res.status).toBe(200);
    const mine = paths(res.body.data);
    expect(mine).toEqual(expect.arrayContaining(['/', '/todo', '/done', '/my', '/cc', '/start']));
    expect(mine[0]).toBe('/');
    expect(mine).not.toContain('/designer');
    expect(mine).not.toContain('menu.identity');
    expect(mine).not.toContain('/admin/users');
  });

  it('adds what the user\u2019s codes open, under their directory, with the buttons they may use', async () => {
    const user = await createUserWith(platform, ['system:user:list', 'system:user:create']);
    const tree = (await platform.call('GET', '/api/v1/menus/my', { token: user.token })).body.data;
    const identity = tree.find((n: any) => n.name === 'menu.identity');
    expect(identity.children.map((n: any) => n.path)).toEqual(['/admin/users']);
    expect(identity.children[0].children.map((n: any) => n.name)).toEqual(['menu.userCreate']);
  });

  it('follows a change of the tree: a hidden entry disappears, a new one appears', async () => {
    const user = await createUserWith(platform, []);
    const created = await platform.call('POST', '/api/v1/menus', {
      token: admin,
      body: { name: uniq('nav.help'), kind: 'page', path: '/help', sort: 999 },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    const mine = async () =>
      paths((await platform.call('GET', '/api/v1/menus/my', { token: user.token })).body.data);
    expect(await mine()).toContain('/help');
    await platform.call('PUT', `/api/v1/menus/${id}`, { token: admin, body: { visible: false } });
    expect(await mine()).not.toContain('/help');
    const removed = await platform.call('DELETE', `/api/v1/menus/${id}`, { token: admin });
    expect(removed.status).toBe(200);
    const audit = await platform.call(
      'GET',
      `/api/v1/logs/audit?target_type=menu&target_id=${id}`,
      {
        token: admin,
      },
    );
    expect(audit.body.data.list.map((e: any) => e.action).sort()).toEqual([
      'create',
      'delete',
      'update',
    ]);
  });
});

describe("the console's seeded menu tree", () => {
  it("lists the console's pages under their directories for a platform administrator", async () => {
    const tree = (await platform.call('GET', '/api/v1/menus/my', { token: admin })).body.data;
    const under = (name: string) =>
      tree.find((n: any) => n.name === name).children.map((n: any) => n.path);
    expect(under('menu.identity')).toEqual([
      '/admin/users',
      '/admin/roles',
      '/admin/departments',
      '/admin/posts',
      '/admin/tenants',
      '/admin/menus',
    ]);
    expect(under('menu.approvals')).toEqual(['/approvals/instances', '/approvals/analytics']);
    expect(under('menu.audit')).toEqual(['/audit/operations', '/audit/logins', '/audit/business']);
    expect(under('menu.system')).toEqual([
      '/system/settings',
      '/system/dicts',
      '/system/notices',
      '/system/error-texts',
      '/system/templates',
      '/system/files',
      '/system/oauth-clients',
      '/system/codegen',
    ]);
    expect(paths(tree)).toContain('/monitor');
    // No entry still points at a path the console no longer has.
    expect(
      paths(tree).filter((p: string) => /^\/(logs|system\/(users|roles|menus))/.test(p)),
    ).toEqual([]);
  });

  it('gives an auditor the audit page their code opens, and no other page of the directory', async () => {
    const auditor = await createUserWith(platform, ['system:log:login']);
    const tree = (await platform.call('GET', '/api/v1/menus/my', { token: auditor.token })).body
      .data;
    const audit = tree.find((n: any) => n.name === 'menu.audit');
    expect(audit.children.map((n: any) => n.path)).toEqual(['/audit/logins']);
    expect(paths(tree)).not.toContain('/monitor');
    expect(paths(tree)).not.toContain('/system/settings');
  });
});

describe('platform-only entries', () => {
  const PLATFORM_PAGES = [
    '/approvals/instances',
    '/approvals/analytics',
    '/system/oauth-clients',
    '/system/codegen',
    '/system/error-texts',
    '/monitor',
    '/admin/tenants',
    '/admin/menus',
  ];

  it('are left out of a tenant administrator\u2019s tree although they hold every code', async () => {
    const { token } = await createTenantWithAdmin(platform, admin);
    const tree = (await platform.call('GET', '/api/v1/menus/my', { token })).body.data;
    const mine = paths(tree);
    for (const page of PLATFORM_PAGES) expect(mine).not.toContain(page);
    // No directory is left empty by them, and the tenant's own pages stay.
    expect(mine).not.toContain('menu.approvals');
    expect(mine).toEqual(expect.arrayContaining(['/admin/users', '/system/settings']));
  });

  it('are listed for a platform administrator, and the flag is set and read through the API', async () => {
    const tree = (await platform.call('GET', '/api/v1/menus/my', { token: admin })).body.data;
    const seeded = flatten(tree).filter((n) => PLATFORM_PAGES.includes(n.path));
    expect(seeded.map((n) => n.path).sort()).toEqual([...PLATFORM_PAGES].sort());
    expect(seeded.every((n) => n.platform_only === true)).toBe(true);

    const user = await createUserWith(platform, []);
    const created = await platform.call('POST', '/api/v1/menus', {
      token: admin,
      body: { name: uniq('nav.ops'), kind: 'page', path: '/ops', platform_only: true, sort: 998 },
    });
    expect(created.status).toBe(200);
    expect(created.body.data.platform_only).toBe(true);
    const id = created.body.data.id;
    const userSees = async () =>
      paths((await platform.call('GET', '/api/v1/menus/my', { token: user.token })).body.data);
    expect(await userSees()).not.toContain('/ops');
    const adminTree = (await platform.call('GET', '/api/v1/menus/my', { token: admin })).body.data;
    expect(paths(adminTree)).toContain('/ops');
    const opened = await platform.call('PUT', `/api/v1/menus/${id}`, {
      token: admin,
      body: { platform_only: false },
    });
    expect(opened.body.data.platform_only).toBe(false);
    expect(await userSees()).toContain('/ops');
    const bad = await platform.call('PUT', `/api/v1/menus/${id}`, {
      token: admin,
      body: { platform_only: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40001);
    await platform.call('DELETE', `/api/v1/menus/${id}`, { token: admin });
  });
});

describe('menu administration', () => {
  it('is for platform administrators holding the code (403 otherwise)', async () => {
    const holder = await createUserWith(platform, ['system:menu:list', 'system:menu:create']);
    const list = await platform.call('GET', '/api/v1/menus', { token: holder.token });
    expect([list.status, list.body.code]).toEqual([403, 40300]);
    const tree = await platform.call('GET', '/api/v1/menus', { token: admin });
    expect(tree.status).toBe(200);
    expect(paths(tree.body.data)).toContain('/admin/menus');
  });

  it('refuses bad input: unknown parent, a cycle, an external link, deleting a parent', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      platform.call(method, path, { token: admin, ...(body ? { body } : {}) });
    const orphan = await call('POST', '/api/v1/menus', {
      name: 'x',
      kind: 'page',
      parent_id: 987654321,
    });
    expect([orphan.status, orphan.body.code]).toEqual([400, 40001]);
    const link = await call('POST', '/api/v1/menus', {
      name: 'x',
      kind: 'page',
      path: 'https://evil.example',
    });
    expect([link.status, link.body.code]).toEqual([400, 40001]);
    const top = (await call('POST', '/api/v1/menus', { name: uniq('dir'), kind: 'directory' })).body
      .data;
    const child = (
      await call('POST', '/api/v1/menus', {
        name: uniq('p'),
        kind: 'page',
        parent_id: top.id,
        path: '/x',
      })
    ).body.data;
    const cycle = await call('PUT', `/api/v1/menus/${top.id}`, { parent_id: child.id });
    expect([cycle.status, cycle.body.code]).toEqual([400, 40001]);
    const parent = await call('DELETE', `/api/v1/menus/${top.id}`);
    expect([parent.status, parent.body.code]).toEqual([409, 40900]);
    expect((await call('DELETE', `/api/v1/menus/${child.id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/menus/${top.id}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/menus/${top.id}`)).status).toBe(404);
  });
});
