/** The caller's navigation: the menu tree the server keeps (`GET /api/v1/menus/my`). */
import { useQuery } from '@tanstack/react-query';
import { api, data } from './client';
import type { components } from './schema';

/** One menu entry with its children, ordered by sort, then id. */
export type MenuNode = components['schemas']['MenuNode'];

/** The entries the caller may see; not asked while a password change blocks every call. */
export function useMyMenus(enabled: boolean) {
  return useQuery({
    queryKey: ['menus', 'my'],
    queryFn: () => data(api.GET('/api/v1/menus/my')) as Promise<MenuNode[]>,
    enabled,
    staleTime: 5 * 60_000,
  });
}
