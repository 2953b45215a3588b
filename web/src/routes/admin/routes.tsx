import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { AdminTheme } from './shared/AdminTheme';

/** Each admin page loads on demand, so the first page's script stays small. */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['element'] {
  const Page = lazy(load);
  return (
    <AdminTheme>
      <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
        <Page />
      </Suspense>
    </AdminTheme>
  );
}

/** The identity administration pages, children of the signed-in layout's route. */
export const adminRoutes: RouteObject[] = [
  { path: 'admin/users', element: page(() => import('./users/UsersPage')) },
  { path: 'admin/roles', element: page(() => import('./roles/RolesPage')) },
  { path: 'admin/departments', element: page(() => import('./departments/DepartmentsPage')) },
  { path: 'admin/posts', element: page(() => import('./posts/PostsPage')) },
  { path: 'admin/tenants', element: page(() => import('./tenants/TenantsPage')) },
  { path: 'admin/menus', element: page(() => import('./menus/MenusPage')) },
];
