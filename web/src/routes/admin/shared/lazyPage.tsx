import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageLoading } from '../../../components/PageLoading';

/**
 * An administration page loaded on demand, so the first page's script stays small (and a page's
 * heavy parts, echarts say, stay out of it).
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): RouteObject['element'] {
  const Page = lazy(load);
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}
