import type { APIRequestContext } from '@playwright/test';

/** Seeding through the public API, as any client would. */
export async function apiLogin(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/v1/login', { data: { username, password } });
  if (!res.ok()) throw new Error(`login ${username}: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { data: { access_token: string; user: { id: number } } };
  return { token: body.data.access_token, id: body.data.user.id };
}

export async function call<T = unknown>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  const body = (await res.json()) as { code: number; message: string; data: T };
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${JSON.stringify(body)}`);
  return body.data;
}

export const uniq = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Passwords the platform's policy accepts (10+ characters, not guessable). */
const INITIAL_PASSWORD = 'Amber-Lantern-Quay-71';
const USER_PASSWORD = 'Quiet-Harbor-Lantern-42';

/** A user with no permission codes beyond signing in: an ordinary initiator or approver. */
export async function createUser(
  request: APIRequestContext,
  adminToken: string,
  name: string,
  roleIds: number[] = [],
) {
  const username = uniq(name.toLowerCase().replace(/[^a-z]/g, ''));
  const user = await call<{ id: number }>(request, adminToken, 'POST', '/api/v1/users', {
    username,
    password: INITIAL_PASSWORD,
    nickname: name,
    role_ids: roleIds,
  });
  // A user an administrator created changes the password at first sign-in: done here, through
  // the API, so the browser tests start from an ordinary account.
  const { token } = await apiLogin(request, username, INITIAL_PASSWORD);
  await call(request, token, 'POST', '/api/v1/me/password', {
    old_password: INITIAL_PASSWORD,
    new_password: USER_PASSWORD,
  });
  return { id: user.id, username, password: USER_PASSWORD, nickname: name };
}

/** A user as createUser made them. */
export type User = Awaited<ReturnType<typeof createUser>>;

export async function createRole(
  request: APIRequestContext,
  adminToken: string,
  permissions: string[],
) {
  const code = uniq('r');
  const role = await call<{ id: number }>(request, adminToken, 'POST', '/api/v1/roles', {
    code,
    name: code,
    permissions,
  });
  return role.id;
}

/** start → one approval step per entry, in order: `{id, name, users, ...node attributes}`. */
export function chain(
  steps: Array<{ id: string; name: string; users: number[]; [attr: string]: unknown }>,
) {
  let child: Record<string, unknown> | null = null;
  for (const { id, name, users, ...attrs } of [...steps].reverse()) {
    child = {
      id,
      name,
      type: 'approval',
      mode: 'or',
      assignee: { type: 'users', userIds: users },
      ...attrs,
      child,
    };
  }
  return { id: 'start', name: 'Start', type: 'start', child };
}

export const REASON_FORM = {
  fields: [{ key: 'reason', label: 'Reason', type: 'textarea', required: true }],
};

/** Creates and publishes a flow-form definition through the API; answers its key and name. */
export async function publishFlow(
  request: APIRequestContext,
  adminToken: string,
  nodeTree: unknown,
  extra: Record<string, unknown> = {},
) {
  const key = uniq('flow');
  const name = `Flow ${key}`;
  const created = await call<{ id: number }>(
    request,
    adminToken,
    'POST',
    '/api/v1/bpm/definitions',
    { key, name, form_mode: 'flow', form_schema: REASON_FORM, node_tree: nodeTree, ...extra },
  );
  await call(request, adminToken, 'POST', `/api/v1/bpm/definitions/${created.id}/publish`);
  return { id: created.id, key, name };
}

/** Starts an instance as `token`'s user; answers the instance id. */
export async function startInstance(
  request: APIRequestContext,
  token: string,
  key: string,
  reason: string,
) {
  const instance = await call<{ id: number }>(request, token, 'POST', '/api/v1/bpm/instances', {
    definition_key: key,
    form: { reason },
  });
  return instance.id;
}

/** The caller's pending task on the instance (from their todo list). */
export async function todoTaskOf(request: APIRequestContext, token: string, instanceId: number) {
  const todo = await call<{ list: { id: number; instance_id: number }[] }>(
    request,
    token,
    'GET',
    '/api/v1/bpm/tasks/todo?page_size=100',
  );
  const task = todo.list.find((t) => t.instance_id === instanceId);
  if (!task) throw new Error(`no pending task on instance ${instanceId}`);
  return task.id;
}
