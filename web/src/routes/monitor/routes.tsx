import { Navigate, type RouteObject } from 'react-router';
import { lazyPage as page } from '../admin/shared/lazyPage';

/**
 * `/monitor`, a child of the signed-in layout's route (loaded on demand: the trend charts'
 * echarts stays out of the first script); `/monitor/alerts`, where notices sent before the link
 * became `/monitor?tab=alerts` point, opens its alerts tab.
 */
export const monitorRoutes: RouteObject[] = [
  { path: 'monitor', element: page(() => import('./MonitorPage')) },
  { path: 'monitor/alerts', element: <Navigate to="/monitor?tab=alerts" replace /> },
];
