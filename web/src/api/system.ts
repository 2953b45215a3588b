/**
 * The system service as the console's frame uses it: the caller's in-app inbox (the header's
 * bell) and the notices in effect (shown after sign-in and on the dashboard).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from './bpm';
import { api, data } from './client';

/** One notice in the caller's inbox; `link` is a console route or null. */
export interface InboxNotice {
  id: number;
  category: string;
  title: string;
  body: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}

/** A published notice whose window holds now. */
export interface EffectiveNotice {
  id: number;
  title: string;
  body: string;
  level: 'info' | 'success' | 'warning' | 'error';
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
}

export const inboxKeys = {
  all: ['inbox'] as const,
  unread: ['inbox', 'unread-count'] as const,
  list: (page: number) => ['inbox', 'list', page] as const,
};

const POLL_MS = 30_000;

/** The unread count for the bell, asked every 30 s while `enabled`. */
export function useInboxUnread(enabled: boolean) {
  return useQuery({
    queryKey: inboxKeys.unread,
    queryFn: async () =>
      ((await data(api.GET('/api/v1/inbox/unread-count'))) as { count: number }).count,
    refetchInterval: POLL_MS,
    enabled,
  });
}

/** One page of the inbox, newest first; only asked while the drawer is open. */
export function useInbox(page: number, enabled: boolean) {
  return useQuery({
    queryKey: inboxKeys.list(page),
    queryFn: () =>
      data(
        api.GET('/api/v1/inbox', { params: { query: { page, page_size: 10 } as never } }),
      ) as Promise<Page<InboxNotice>>,
    enabled,
  });
}

/** Marks one notice read (`id`) or all of them (`'all'`); the bell and the list follow. */
export function useMarkInboxRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number | 'all') => {
      if (id === 'all') await data(api.PUT('/api/v1/inbox/read-all'));
      else await data(api.PUT('/api/v1/inbox/{id}/read', { params: { path: { id } } }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}

/** The notices in effect for the caller's tenant (a bare array, at most 50). */
export function useEffectiveNotices(enabled: boolean) {
  return useQuery({
    queryKey: ['notices', 'effective'],
    queryFn: () => data(api.GET('/api/v1/notices/effective')) as Promise<EffectiveNotice[]>,
    enabled,
    staleTime: 5 * 60_000,
  });
}
