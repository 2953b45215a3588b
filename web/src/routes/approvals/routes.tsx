import type { RouteObject } from 'react-router';
import { lazyPage as page } from '../admin/shared/lazyPage';

/** The approvals administration pages, children of the signed-in layout's route. */
export const approvalsRoutes: RouteObject[] = [
  { path: 'approvals/instances', element: page(() => import('./instances/InstancesPage')) },
  { path: 'approvals/analytics', element: page(() => import('./analytics/AnalyticsPage')) },
];
