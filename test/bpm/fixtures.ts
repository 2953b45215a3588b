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
  platform: TestPlatform,
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
