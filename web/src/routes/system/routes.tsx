import type { RouteObject } from 'react-router';
import { lazyPage as page } from '../admin/shared/lazyPage';

/** The system pages (part 1), children of the signed-in layout's route. */
export const systemRoutes: RouteObject[] = [
  { path: 'system/settings', element: page(() => import('./settings/SettingsPage')) },
  { path: 'system/dicts', element: page(() => import('./dicts/DictsPage')) },
  { path: 'system/notices', element: page(() => import('./notices/NoticesPage')) },
  { path: 'system/error-texts', element: page(() => import('./error-texts/ErrorTextsPage')) },
  { path: 'system/templates', element: page(() => import('./templates/TemplatesPage')) },
];
