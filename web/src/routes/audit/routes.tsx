import { Spin } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { AdminTheme } from '../admin/shared/AdminTheme';

/** Each audit page loads on demand (the trend chart's echarts stays out of the first script). */
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

/** The audit pages, children of the signed-in layout's route. */
export const auditRoutes: RouteObject[] = [
  { path: 'audit/operations', element: page(() => import('./operations/OperationsPage')) },
  { path: 'audit/logins', element: page(() => import('./logins/LoginsPage')) },
  { path: 'audit/business', element: page(() => import('./business/BusinessPage')) },
];
