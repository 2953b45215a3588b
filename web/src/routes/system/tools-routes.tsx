import type { RouteObject } from 'react-router';
import { lazyPage as page } from '../admin/shared/lazyPage';

/** The files, OAuth2 clients and code generator pages, children of the signed-in layout. */
export const systemToolsRoutes: RouteObject[] = [
  { path: 'system/files', element: page(() => import('./files/FilesPage')) },
  {
    path: 'system/oauth-clients',
    element: page(() => import('./oauth-clients/OAuthClientsPage')),
  },
  { path: 'system/codegen', element: page(() => import('./codegen/CodegenPage')) },
];
