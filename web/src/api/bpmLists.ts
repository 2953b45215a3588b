/**
 * The BPM lists the console pages through (server-paginated tables): one fetcher per list, so the
 * pages hold no calls, and the mutations those lists make.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  bpmKeys,
  type Definition,
  type FlowNode,
  type InstanceDetail,
  type Page,
  type Task,
} from './bpm';
import { api, data } from './client';
import type { paths } from './schema';

type QueryOf<P extends keyof paths> = paths[P] extends {
  get: { parameters: { query?: infer Q } };
}
  ? NonNullable<Q>
  : never;

/** A carbon copy in the caller's inbox. */
export interface CcItem {
  id: number;
  instance_id: number;
  node_id: string;
  read: boolean;
  read_at: string | null;
  created_at: string;
  instance_title: string;
}

/** The caller's open tasks. */
export const fetchTodo = (query: QueryOf<'/api/v1/bpm/tasks/todo'>) =>
  data(api.GET('/api/v1/bpm/tasks/todo', { params: { query } })) as Promise<Page<Task>>;

/** The tasks the caller has finished. */
export const fetchDone = (query: QueryOf<'/api/v1/bpm/tasks/done'>) =>
  data(api.GET('/api/v1/bpm/tasks/done', { params: { query } })) as Promise<Page<Task>>;

/** The requests the caller started. */
export const fetchMyInstances = (query: QueryOf<'/api/v1/bpm/instances/my'>) =>
  data(api.GET('/api/v1/bpm/instances/my', { params: { query } })) as unknown as Promise<
    Page<InstanceDetail>
  >;

/** The caller's carbon copies. */
export const fetchCc = (query: QueryOf<'/api/v1/bpm/cc/my'>) =>
  data(api.GET('/api/v1/bpm/cc/my', { params: { query } })) as Promise<Page<CcItem>>;

/** The definitions the designer lists. */
export const fetchDefinitions = (query: QueryOf<'/api/v1/bpm/definitions'>) =>
  data(api.GET('/api/v1/bpm/definitions', { params: { query } })) as Promise<Page<Definition>>;

/** Marks a carbon copy read; the inbox list and the menu's unread badge follow. */
export function useMarkCcRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.POST('/api/v1/bpm/cc/{id}/read', { params: { path: { id } } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bpmKeys.ccUnread });
      void queryClient.invalidateQueries({ queryKey: ['list', 'cc'] });
    },
  });
}

/** Creates a draft flow with an empty form and the given starting tree. */
export const createDefinition = (body: {
  key: string;
  name: string;
  category: string | null;
  node_tree: FlowNode;
}) =>
  data(
    api.POST('/api/v1/bpm/definitions', {
      body: {
        ...body,
        form_mode: 'flow',
        form_schema: { fields: [] } as never,
        node_tree: body.node_tree as never,
      },
    }),
  ) as Promise<Definition>;

/** The dashboard's lists: small, first page only, refreshed every minute. */
const DASHBOARD_REFRESH_MS = 60_000;

/** The caller's open tasks, oldest first (the count is `total`, the oldest the first row). */
export function useOldestTodo(enabled: boolean) {
  return useQuery({
    queryKey: ['list', 'todo', 'oldest'],
    queryFn: () => fetchTodo({ page: 1, page_size: 1, sort: 'created_at', order: 'asc' }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    enabled,
  });
}

/** The caller's requests still running, newest first. */
export function useMyOpenRequests(enabled: boolean) {
  return useQuery({
    queryKey: ['list', 'my', 'running'],
    queryFn: () => fetchMyInstances({ page: 1, page_size: 5, status: 'running' } as never),
    refetchInterval: DASHBOARD_REFRESH_MS,
    enabled,
  });
}

/** Suspended requests of the tenant, waiting for a repair (platform administrators). */
export function useStuckInstances(enabled: boolean) {
  return useQuery({
    queryKey: ['list', 'instances', 'suspended'],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/instances', {
          params: { query: { page: 1, page_size: 5, status: 'suspended' } },
        }),
      ) as unknown as Promise<Page<InstanceDetail>>,
    refetchInterval: DASHBOARD_REFRESH_MS,
    enabled,
  });
}

/** The tenant's approval figures (`GET /bpm/stats`, platform administrators). */
export function useBpmStats(enabled: boolean) {
  return useQuery({
    queryKey: ['bpm', 'stats'],
    queryFn: async () => {
      const d = await data(api.GET('/api/v1/bpm/stats'));
      return d as NonNullable<typeof d>;
    },
    refetchInterval: DASHBOARD_REFRESH_MS,
    enabled,
  });
}

/** Every version of a flow (same key), for the designer's versions tab. */
export function useDefinitionVersions(key: string) {
  return useQuery({
    queryKey: ['bpm', 'definitions', 'versions', key],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/definitions', { params: { query: { key, page_size: 100 } } }),
      ) as Promise<Page<Definition>>,
  });
}

/** Roles to pick from (the designer's role rules); asked only when the caller may list roles. */
export function useRoleChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['roles', 'picker'],
    queryFn: () =>
      data(api.GET('/api/v1/roles', { params: { query: { page_size: 100 } } })) as Promise<
        Page<{ id: number; name: string; code: string }>
      >,
    enabled,
  });
}
