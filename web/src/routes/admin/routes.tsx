import type { RouteObject } from 'react-router';
import { lazyPage as page } from './shared/lazyPage';

/** The identity administration pages, children of the signed-in layout's route. */
export const adminRoutes: RouteObject[] = [
  { path: 'admin/users', element: page(() => import('./users/UsersPage')) },
  { path: 'admin/roles', element: page(() => import('./roles/RolesPage')) },
  { path: 'admin/departments', element: page(() => import('./departments/DepartmentsPage')) },
  { path: 'admin/posts', element: page(() => import('./posts/PostsPage')) },
  { path: 'admin/tenants', element: page(() => import('./tenants/TenantsPage')) },
  { path: 'admin/menus', element: page(() => import('./menus/MenusPage')) },
];
