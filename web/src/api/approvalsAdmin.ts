/**
 * The approvals administration calls (every instance of the tenant, force terminate, resume
 * with repairs, reassigning one task or all of a user's, the analytics) as TanStack Query hooks
 * over the generated client, so the approvals admin pages never call the API themselves and
 * every change refreshes the lists it touches.
 */
import {
  keepPreviousData,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Definition, Diagram, InstanceDetail } from './bpm';
import { api, data } from './client';
import type { operations } from './schema';
import type { Body, Ok, Query } from './schemaTypes';

export type AdminInstance = Ok<operations['getBpmInstances']>['list'][number];
export type AdminInstanceQuery = Query<operations['getBpmInstances']>;
export type InstanceStatus = AdminInstance['status'];
export type SuspendReason = NonNullable<AdminInstance['suspend_reason']>;
export type ResumeInput = NonNullable<Body<operations['postBpmInstancesByIdResume']>>;
export type UserReassignResult = Ok<operations['postBpmAdminReassign']>;
export type BpmStats = Ok<operations['getBpmStats']>;

/** Every key starts with `approvalsAdmin`, so a change refreshes the lists and the detail. */
export const approvalsAdminKeys = {
  root: ['approvalsAdmin'] as const,
  list: (query: object) => ['approvalsAdmin', 'instances', query] as const,
  detail: (id: number) => ['approvalsAdmin', 'instance', id] as const,
  diagram: (id: number) => ['approvalsAdmin', 'diagram', id] as const,
  definition: (id: number) => ['approvalsAdmin', 'definition', id] as const,
  definitions: ['approvalsAdmin', 'definitions'] as const,
  stats: ['approvalsAdmin', 'stats'] as const,
};

const id = (value: number) => ({ params: { path: { id: value } } });

/** One page of the tenant's instances (platform admin). */
export function useAdminInstances(query: AdminInstanceQuery) {
  return useQuery({
    queryKey: approvalsAdminKeys.list(query),
    queryFn: () => data(api.GET('/api/v1/bpm/instances', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** An instance's detail with its tasks, for reassigning one of them. */
export function useAdminInstance(instanceId: number | null) {
  return useQuery({
    queryKey: approvalsAdminKeys.detail(instanceId ?? 0),
    queryFn: async () =>
      (await data(api.GET('/api/v1/bpm/instances/{id}', id(instanceId ?? 0)))) as InstanceDetail,
    enabled: instanceId !== null,
  });
}

/** The frozen node tree of a stopped instance: the branches a repair may pick from. */
export function useInstanceDiagram(instanceId: number | null) {
  return useQuery({
    queryKey: approvalsAdminKeys.diagram(instanceId ?? 0),
    queryFn: async () =>
      (await data(api.GET('/api/v1/bpm/instances/{id}/diagram', id(instanceId ?? 0)))) as Diagram,
    enabled: instanceId !== null,
  });
}

/**
 * The frozen trees of several stopped instances (one cached query each, shared with the repair
 * dialog), so the stuck queue names each stopped step by its name rather than its id.
 */
export function useInstanceDiagrams(instanceIds: readonly number[]) {
  return useQueries({
    queries: instanceIds.map((instanceId) => ({
      queryKey: approvalsAdminKeys.diagram(instanceId),
      queryFn: async () =>
        (await data(api.GET('/api/v1/bpm/instances/{id}/diagram', id(instanceId)))) as Diagram,
    })),
  });
}

/** The definition version an instance runs on: its form's fields, for patching the form. */
export function useDefinitionVersion(definitionId: number | null) {
  return useQuery({
    queryKey: approvalsAdminKeys.definition(definitionId ?? 0),
    queryFn: async () =>
      (await data(
        api.GET('/api/v1/bpm/definitions/{id}', id(definitionId ?? 0)),
      )) as unknown as Definition,
    enabled: definitionId !== null,
    staleTime: 5 * 60_000,
  });
}

/** The definitions' keys and names for the definition filter (the first 100). */
export function useDefinitionOptions() {
  return useQuery({
    queryKey: approvalsAdminKeys.definitions,
    queryFn: () =>
      data(api.GET('/api/v1/bpm/definitions', { params: { query: { page_size: 100 } } })),
    staleTime: 5 * 60_000,
  });
}

/** The analytics: distribution, 30-day trend, per definition, bottlenecks. */
export function useBpmStats() {
  return useQuery({
    queryKey: approvalsAdminKeys.stats,
    queryFn: () => data(api.GET('/api/v1/bpm/stats')),
  });
}

/** The administrative calls; each answers what the server answered. */
export const approvalsAdminCalls = {
  terminate: (v: { id: number; comment?: string }) =>
    data(
      api.POST('/api/v1/bpm/instances/{id}/terminate', {
        ...id(v.id),
        body: v.comment ? { comment: v.comment } : {},
      }),
    ),
  resume: (v: { id: number; body: ResumeInput }) =>
    data(api.POST('/api/v1/bpm/instances/{id}/resume', { ...id(v.id), body: v.body })),
  reassignTask: (v: { taskId: number; to_user_id: number; comment?: string }) =>
    data(
      api.POST('/api/v1/bpm/tasks/{id}/reassign', {
        ...id(v.taskId),
        body: { to_user_id: v.to_user_id, ...(v.comment ? { comment: v.comment } : {}) },
      }),
    ),
  reassignUser: (body: Body<operations['postBpmAdminReassign']>) =>
    data(api.POST('/api/v1/bpm/admin/reassign', { body })),
};

/** A change to instances: on success the lists, details and analytics are read again. */
export function useApprovalsAdminMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: approvalsAdminKeys.root }),
  });
}
