import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aMe } from '../test/me';
import type { MenuNode } from '../api/menus';
import type { Me } from '../auth/AuthContext';
import i18n from '../i18n';
import { NavMenu } from './NavMenu';
import { setRouteTable } from './routeTable';

let nextId = 1;
function node(partial: Partial<MenuNode> & Pick<MenuNode, 'name' | 'kind'>): MenuNode {
  return {
    id: nextId++,
    parent_id: null,
    path: null,
    permission_code: null,
    icon: null,
    sort: 0,
    visible: true,
    platform_only: false,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    children: [],
    ...partial,
  };
}

const TREE: MenuNode[] = [
  node({ name: 'nav.todo', kind: 'page', path: '/todo', icon: 'CheckSquareOutlined' }),
  node({
    name: 'menu.identity',
    kind: 'directory',
    children: [
      node({
        name: 'menu.users',
        kind: 'page',
        path: '/admin/users',
        children: [node({ name: 'menu.userCreate', kind: 'button' })],
      }),
      node({ name: 'menu.tenants', kind: 'page', path: '/admin/tenants' }),
    ],
  }),
  node({ name: 'Help desk', kind: 'page', path: '/help' }),
  // The console has no page here yet: never a link to "page not found".
  node({ name: 'menu.monitor', kind: 'page', path: '/monitor' }),
];

const me = (over: Partial<Me>): Me => aMe({ id: 1, username: 'ann', nickname: 'Ann', ...over });

function show(caller: Me) {
  const element = <NavMenu tree={TREE} me={caller} badges={{ '/todo': 3 }} />;
  const router = createMemoryRouter(
    [
      { path: '/admin/users', element },
      { path: '*', element },
    ],
    { initialEntries: ['/admin/users'] },
  );
  render(<RouterProvider router={router} />);
}

beforeAll(async () => {
  setRouteTable([
    {
      path: '/',
      children: [
        { path: 'todo' },
        { path: 'help' },
        { path: 'admin/users' },
        { path: 'admin/tenants' },
        { path: '*' },
      ],
    },
  ]);
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

describe('the navigation from the menu tree', () => {
  it('shows the pages the console has, by translated label or the entry name, with counts', () => {
    show(me({ permissions: ['*'], is_platform_admin: true }));
    expect(screen.getByRole('menuitem', { name: /To do/ }).textContent).toContain('3');
    expect(screen.getByText('Identity')).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Users' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Tenants' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Help desk' })).toBeTruthy();
    expect(screen.queryByText('Monitor')).toBeNull();
    expect(screen.queryByText('Create users')).toBeNull();
  });

  it('hides what the caller may not use, and a directory left empty', () => {
    show(me({ permissions: ['*'], is_platform_admin: false }));
    expect(screen.getByRole('menuitem', { name: 'Users' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Tenants' })).toBeNull();
    cleanup();
    show(me({ permissions: [] }));
    expect(screen.queryByText('Identity')).toBeNull();
    expect(screen.getByRole('menuitem', { name: /To do/ })).toBeTruthy();
  });

  it('labels entries in Simplified Chinese when the reader chose it', async () => {
    await i18n.changeLanguage('zh-CN');
    show(me({ permissions: ['*'], is_platform_admin: true }));
    expect(screen.getByText('身份管理')).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: '用户' })).toBeTruthy();
    await i18n.changeLanguage('en');
  });
});
