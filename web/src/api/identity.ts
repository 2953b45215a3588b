/**
 * The identity administration calls (users, roles, permissions, departments, posts, tenants,
 * packages, menus, a user's sessions and absence, reassigning a disabled user's tasks) as
 * TanStack Query hooks over the generated client, so the admin pages never call the API
 * themselves and every change refreshes the lists it touches.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from './client';
import { directoryKeys } from './people';
import type { operations } from './schema';
import type { Body, Ok, Query } from './schemaTypes';

export type User = Ok<operations['getUsersById']>;
export type UserQuery = Query<operations['getUsers']>;
export type UserInput = Body<operations['postUsers']>;
export type UserChange = Body<operations['putUsersById']>;
export type UpdatedUser = Ok<operations['putUsersById']>;
export type Role = Ok<operations['getRolesById']>;
export type RoleQuery = Query<operations['getRoles']>;
export type RoleInput = Body<operations['postRoles']>;
export type Permission = Ok<operations['getPermissions']>[number];
export type DepartmentNode = Ok<operations['getDepartmentsTree']>[number];
export type DepartmentInput = Body<operations['postDepartments']>;
export type Post = Ok<operations['getPostsById']>;
export type PostQuery = Query<operations['getPosts']>;
export type PostInput = Body<operations['postPosts']>;
export type Tenant = Ok<operations['getTenantsById']>;
export type TenantQuery = Query<operations['getTenants']>;
export type TenantInput = Body<operations['postTenants']>;
export type TenantChange = Body<operations['putTenantsById']>;
export type Package = Ok<operations['getPackagesById']>;
export type PackageInput = Body<operations['postPackages']>;
export type MenuNode = Ok<operations['getMenus']>[number];
export type MenuInput = Body<operations['postMenus']>;
export type Session = Ok<operations['getSessions']>[number];
export type Absence = NonNullable<Ok<operations['getBpmOutOfOfficeUsersById']>>;
export type AbsenceInput = Body<operations['putBpmOutOfOfficeUsersById']>;
export type ReassignResult = Ok<operations['postBpmAdminReassign']>;

/** Every key starts with `identity` and its area, so a change refreshes exactly its area. */
export const identityKeys = {
  area: (area: Area) => ['identity', area] as const,
  list: (area: Area, query: object) => ['identity', area, 'list', query] as const,
  all: (area: Area) => ['identity', area, 'all'] as const,
  sessions: (userId: number) => ['identity', 'sessions', userId] as const,
  absence: (userId: number) => ['identity', 'absence', userId] as const,
  permissions: ['identity', 'permissions'] as const,
};
export type Area =
  | 'users'
  | 'roles'
  | 'departments'
  | 'posts'
  | 'tenants'
  | 'packages'
  | 'menus'
  | 'sessions'
  | 'absence';

/** The most a picker loads in one call (the server's page size limit). */
export const PICKER_PAGE = 100;
/** A call whose answer carries nothing to read (a delete): only its failure matters. */
async function done(call: Promise<unknown>): Promise<void> {
  await call;
}

const id = (value: number) => ({ params: { path: { id: value } } });

export function useUsers(query: UserQuery) {
  return useQuery({
    queryKey: identityKeys.list('users', query),
    queryFn: () => data(api.GET('/api/v1/users', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useRoles(query: RoleQuery) {
  return useQuery({
    queryKey: identityKeys.list('roles', query),
    queryFn: () => data(api.GET('/api/v1/roles', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** Roles for pickers and for naming a user's roles: the first 100. */
export function useAllRoles() {
  return useQuery({
    queryKey: identityKeys.all('roles'),
    queryFn: () =>
      data(api.GET('/api/v1/roles', { params: { query: { page_size: PICKER_PAGE } } })),
  });
}

/** The closed catalogue of permission codes the role editor offers. */
export function usePermissions() {
  return useQuery({
    queryKey: identityKeys.permissions,
    queryFn: () => data(api.GET('/api/v1/permissions')),
    staleTime: 10 * 60_000,
  });
}

export function useDepartmentTree() {
  return useQuery({
    queryKey: identityKeys.all('departments'),
    queryFn: () => data(api.GET('/api/v1/departments/tree')),
  });
}

export function usePosts(query: PostQuery) {
  return useQuery({
    queryKey: identityKeys.list('posts', query),
    queryFn: () => data(api.GET('/api/v1/posts', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** Posts for pickers: the first 100 active ones. */
export function useAllPosts() {
  return useQuery({
    queryKey: identityKeys.all('posts'),
    queryFn: () =>
      data(api.GET('/api/v1/posts', { params: { query: { page_size: PICKER_PAGE } } })),
  });
}

export function useTenants(query: TenantQuery, enabled = true) {
  return useQuery({
    queryKey: identityKeys.list('tenants', query),
    queryFn: () => data(api.GET('/api/v1/tenants', { params: { query } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePackages(enabled = true) {
  return useQuery({
    queryKey: identityKeys.all('packages'),
    queryFn: () => data(api.GET('/api/v1/packages')),
    enabled,
  });
}

export function useMenuTree(enabled = true) {
  return useQuery({
    queryKey: identityKeys.all('menus'),
    queryFn: () => data(api.GET('/api/v1/menus')),
    enabled,
  });
}

export function useUserSessions(userId: number) {
  return useQuery({
    queryKey: identityKeys.sessions(userId),
    queryFn: () => data(api.GET('/api/v1/sessions', { params: { query: { user_id: userId } } })),
  });
}

export function useUserAbsence(userId: number) {
  return useQuery({
    queryKey: identityKeys.absence(userId),
    queryFn: async () =>
      (await data(api.GET('/api/v1/bpm/out-of-office/users/{id}', id(userId)))) ?? null,
  });
}

/** The calls the pages change things with, by area. */
export const identityCalls = {
  createUser: (body: UserInput) => data(api.POST('/api/v1/users', { body })),
  updateUser: (v: { id: number; body: UserChange }) =>
    data(api.PUT('/api/v1/users/{id}', { ...id(v.id), body: v.body })),
  deleteUser: (userId: number) => done(api.DELETE('/api/v1/users/{id}', id(userId))),
  createRole: (body: RoleInput) => data(api.POST('/api/v1/roles', { body })),
  updateRole: (v: { id: number; body: Partial<RoleInput> }) =>
    data(api.PUT('/api/v1/roles/{id}', { ...id(v.id), body: v.body })),
  deleteRole: (roleId: number) => done(api.DELETE('/api/v1/roles/{id}', id(roleId))),
  createDepartment: (body: DepartmentInput) => data(api.POST('/api/v1/departments', { body })),
  updateDepartment: (v: { id: number; body: Partial<DepartmentInput> }) =>
    data(api.PUT('/api/v1/departments/{id}', { ...id(v.id), body: v.body })),
  deleteDepartment: (deptId: number) => done(api.DELETE('/api/v1/departments/{id}', id(deptId))),
  createPost: (body: PostInput) => data(api.POST('/api/v1/posts', { body })),
  updatePost: (v: { id: number; body: Partial<PostInput> }) =>
    data(api.PUT('/api/v1/posts/{id}', { ...id(v.id), body: v.body })),
  deletePost: (postId: number) => done(api.DELETE('/api/v1/posts/{id}', id(postId))),
  createTenant: (body: TenantInput) => data(api.POST('/api/v1/tenants', { body })),
  updateTenant: (v: { id: number; body: TenantChange }) =>
    data(api.PUT('/api/v1/tenants/{id}', { ...id(v.id), body: v.body })),
  deleteTenant: (tenantId: number) => done(api.DELETE('/api/v1/tenants/{id}', id(tenantId))),
  createPackage: (body: PackageInput) => data(api.POST('/api/v1/packages', { body })),
  updatePackage: (v: { id: number; body: Partial<PackageInput> }) =>
    data(api.PUT('/api/v1/packages/{id}', { ...id(v.id), body: v.body })),
  deletePackage: (packageId: number) => done(api.DELETE('/api/v1/packages/{id}', id(packageId))),
  createMenu: (body: MenuInput) => data(api.POST('/api/v1/menus', { body })),
  updateMenu: (v: { id: number; body: Partial<MenuInput> }) =>
    data(api.PUT('/api/v1/menus/{id}', { ...id(v.id), body: v.body })),
  deleteMenu: (menuId: number) => done(api.DELETE('/api/v1/menus/{id}', id(menuId))),
  revokeSession: (sessionId: number) => done(api.DELETE('/api/v1/sessions/{id}', id(sessionId))),
  setAbsence: (v: { userId: number; body: AbsenceInput }) =>
    data(api.PUT('/api/v1/bpm/out-of-office/users/{id}', { ...id(v.userId), body: v.body })),
  clearAbsence: (userId: number) =>
    done(api.DELETE('/api/v1/bpm/out-of-office/users/{id}', id(userId))),
  reassignTasks: (body: Body<operations['postBpmAdminReassign']>) =>
    data(api.POST('/api/v1/bpm/admin/reassign', { body })),
};

/**
 * A change in one area: on success every query of the areas named is refetched (and the people
 * directory, which pickers elsewhere read, when users or departments change).
 */
export function useIdentityMutation<V, R>(fn: (v: V) => Promise<R>, areas: readonly Area[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      const refreshes = areas.map((a) => client.invalidateQueries({ queryKey: ['identity', a] }));
      if (areas.includes('users') || areas.includes('departments')) {
        refreshes.push(client.invalidateQueries({ queryKey: [directoryKeys.departments[0]] }));
      }
      await Promise.all(refreshes);
    },
  });
}
