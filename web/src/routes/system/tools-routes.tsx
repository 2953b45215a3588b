import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { AdminTheme } from '../admin/shared/AdminTheme';

/** Each page loads on demand (the code generator's editor stays out of the first script). */
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

/** The files, OAuth2 clients and code generator pages, children of the signed-in layout. */
export const systemToolsRoutes: RouteObject[] = [
  { path: 'system/files', element: page(() => import('./files/FilesPage')) },
  {
    path: 'system/oauth-clients',
    element: page(() => import('./oauth-clients/OAuthClientsPage')),
  },
  { path: 'system/codegen', element: page(() => import('./codegen/CodegenPage')) },
];
