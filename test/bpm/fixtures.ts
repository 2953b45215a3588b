import type { Kysely } from 'kysely';
import type { DirectoryOf } from '../../src/services/bpm/bpm.ports.js';
import { createTenantDirectory } from '../../src/services/identity/assignee-directory.js';
import type { IdentityTables } from '../../src/services/identity/identity.tables.js';
import { expect } from 'vitest';
import { uniq, type TestPlatform } from '../helpers/platform.js';

export const LEAVE_FORM = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'textarea', required: true },
    { key: 'days', label: 'Days', type: 'number', required: true, min: 0.5, max: 30 },
    { key: 'amount', label: 'Allowance', type: 'amount' },
    { key: 'kind', label: 'Kind', type: 'select', options: ['annual', 'sick'] },
  ],
};

/** start → one approval node for `approverIds` (mode `mode`) → end. */
export function singleApproval(approverIds: number[], mode: 'and' | 'or' | 'sequential' = 'or') {
  return {
    id: 'start',
    type: 'start',
    name: 'Submit',
    child: {
      id: 'approve',
      type: 'approval',
      name: 'Approve',
      assignee: { type: 'users', userIds: approverIds },
      mode,
      child: null,
    },
  };
}

/** A user in the caller's tenant with the given permission codes (through a fresh role). */
export async function createUserWith(
  platform: TestPlatform,
  permissions: string[],
  adminToken?: string,
) {
  const token = adminToken ?? (await platform.adminToken());
  const role = await platform.call('POST', '/api/v1/roles', {
    token,
    body: { code: uniq('role').toLowerCase(), name: 'Test role', permissions },
  });
  expect(role.status).toBe(200);
  const username = uniq('user');
  const password = 'Test-Passw0rd!';
  const user = await platform.call('POST', '/api/v1/users', {
    token,
    body: { username, password, role_ids: permissions.length > 0 ? [role.body.data.id] : [] },
  });
  expect(user.status).toBe(200);
  const session = await platform.login(username, password, undefined);
  return { id: user.body.data.id as number, username, password, token: session.access_token };
}

export async function createDefinition(
  platform: Pick<TestPlatform, 'call'>,
  token: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await platform.call('POST', '/api/v1/bpm/definitions', {
    token,
    body: {
      key: uniq('leave').toLowerCase().replace(/_/g, '-'),
      name: 'Leave request',
      form_mode: 'flow',
      form_schema: LEAVE_FORM,
      node_tree: singleApproval([1]),
      ...overrides,
    },
  });
  return res;
}

export type User = Awaited<ReturnType<typeof createUserWith>>;

/**
 * What a business system does: a published business definition of `bizType` with one step the
 * admin (user 1, who starts it too: self-approval allowed on purpose) decides, an instance of it
 * started through the internal API (`internalToken`), and that step's task. `platform` may be any
 * client with the test platform's `call`.
 */
export async function businessTask(
  platform: Pick<TestPlatform, 'call'>,
  admin: string,
  bizType: string,
  internalToken: string,
) {
  const created = await createDefinition(platform, admin, {
    form_mode: 'business',
    biz_type: bizType,
    node_tree: {
      ...singleApproval([1]),
      child: { ...singleApproval([1]).child, allowInitiator: true },
    },
  });
  expect(created.status, created.text).toBe(200);
  const published = await platform.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token: admin },
  );
  expect(published.status, published.text).toBe(200);
  const started = await platform.call('POST', '/api/v1/bpm/internal/instances', {
    headers: { 'x-internal-token': internalToken },
    body: {
      tenant_id: 1,
      initiator_id: 1,
      definition_key: created.body.data.key,
      biz_id: uniq('B'),
      form: { reason: 'r', days: 1 },
    },
  });
  expect(started.status, started.text).toBe(200);
  const instanceId = started.body.data.id as number;
  const todo = await platform.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', { token: admin });
  const task = todo.body.data.list.find(
    (t: { instance_id: number }) => t.instance_id === instanceId,
  );
  return { instanceId, task: task as { id: number } };
}

/** Helpers over one platform and its admin token, for the flow tests. */
export function flowHelpers(platform: TestPlatform, admin: () => string) {
  async function publish(tree: unknown, extra: Record<string, unknown> = {}) {
    const created = await createDefinition(platform, admin(), { node_tree: tree, ...extra });
    expect(created.status).toBe(200);
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin() },
    );
    expect(res.status).toBe(200);
    return res.body.data as { id: number; key: string; version: number };
  }
  const start = (
    user: User,
    key: string,
    form: Record<string, unknown> = { reason: 'r', days: 1 },
    extra: Record<string, unknown> = {},
  ) =>
    platform.call('POST', '/api/v1/bpm/instances', {
      token: user.token,
      body: { definition_key: key, form, ...extra },
    });
  async function pendingTaskOf(user: User, instanceId: number) {
    const todo = await platform.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', {
      token: user.token,
    });
    return todo.body.data.list.find((t: any) => t.instance_id === instanceId);
  }
  const act = (user: User, taskId: number, action: string, body: Record<string, unknown> = {}) =>
    platform.call('POST', `/api/v1/bpm/tasks/${taskId}/${action}`, { token: user.token, body });
  const get = (user: User | string, path: string) =>
    platform.call('GET', path, { token: typeof user === 'string' ? user : user.token });
  const users = async (n: number) => {
    const out: User[] = [];
    for (let i = 0; i < n; i++) out.push(await createUserWith(platform, []));
    // Typed as a tuple so destructuring the first `n` needs no checks; callers take at most n.
    return out as [User, User, User, User];
  };
  return { publish, start, pendingTaskOf, act, get, users };
}

/** An approval node (camelCase, as the designer writes it). */
export function approval(id: string, userIds: number[], extra: Record<string, unknown> = {}) {
  return {
    id,
    type: 'approval',
    name: id.toUpperCase(),
    assignee: { type: 'users', userIds },
    mode: 'or',
    child: null,
    ...extra,
  };
}

/** start → the given nodes chained in order. */
export function chain(...nodes: Array<Record<string, unknown>>) {
  const root: Record<string, unknown> = { id: 'start', type: 'start', name: 'Submit', child: null };
  let at = root;
  for (const node of nodes) {
    at.child = node;
    at = node;
  }
  return root;
}

/** Identity's directory of a tenant over the platform's database, for runners built by tests. */
export function testDirectoryOf(db: Kysely<any>): DirectoryOf {
  // Read on the caller's transaction when given one: PGlite has a single connection, so a read
  // on the pool from inside a transaction would wait forever.
  return (tenantId, on) =>
    createTenantDirectory(((on ?? db) as Kysely<any>).withTables<IdentityTables>(), tenantId);
}
