import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { AdminTheme } from '../admin/shared/AdminTheme';

// Loads on demand: the trend charts' echarts stays out of the first script.
const MonitorPage = lazy(() => import('./MonitorPage'));

/**
 * `/monitor`, a child of the signed-in layout's route; `/monitor/alerts` (where the monitor's
 * inbox notices link) opens its alerts tab.
 */
export const monitorRoutes: RouteObject[] = [
  {
    path: 'monitor',
    element: (
      <AdminTheme>
        <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
          <MonitorPage />
        </Suspense>
      </AdminTheme>
    ),
  },
  { path: 'monitor/alerts', element: <Navigate to="/monitor?tab=alerts" replace /> },
];
