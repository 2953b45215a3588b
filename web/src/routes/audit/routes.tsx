import type { RouteObject } from 'react-router';
import { lazyPage as page } from '../admin/shared/lazyPage';

/** The audit pages, children of the signed-in layout's route. */
export const auditRoutes: RouteObject[] = [
  { path: 'audit/operations', element: page(() => import('./operations/OperationsPage')) },
  { path: 'audit/logins', element: page(() => import('./logins/LoginsPage')) },
  { path: 'audit/business', element: page(() => import('./business/BusinessPage')) },
];
