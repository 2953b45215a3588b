import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { AdminTheme } from '../admin/shared/AdminTheme';

/** Each page loads on demand (the charts' code only with the analytics page). */
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

/** The approvals administration pages, children of the signed-in layout's route. */
export const approvalsRoutes: RouteObject[] = [
  { path: 'approvals/instances', element: page(() => import('./instances/InstancesPage')) },
  { path: 'approvals/analytics', element: page(() => import('./analytics/AnalyticsPage')) },
];
