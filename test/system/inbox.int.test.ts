import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemInbox } from '../../src/services/system/index.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, singleApproval, type User } from '../bpm/fixtures.js';
import { createTenant, createUserIn, eventually } from './system-fixtures.js';

// The in-app inbox: each user sees only their own notices; BPM's notices land there even though
// NOTIFY_API_BASE is not configured here.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ BPM_OUTBOX_POLL_INTERVAL: '100ms' });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const call = (method: string, path: string, token: string, body?: unknown) =>
  platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
const inboxOf = async (user: { token: string }, query = '') =>
  (await call('GET', `/api/v1/inbox?page_size=100${query}`, user.token)).body.data;

async function startLeave(initiator: User, approver: User) {
  const created = await createDefinition(platform, admin, {
    node_tree: singleApproval([approver.id]),
  });
  await call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, admin);
  const started = await call('POST', '/api/v1/bpm/instances', initiator.token, {
    definition_key: created.body.data.key,
    form: { reason: 'r', days: 1 },
  });
  expect(started.status).toBe(200);
  return started.body.data.id as number;
}

describe('inbox', () => {
  it('receives BPM\u2019s todo and terminal notices without NOTIFY_API_BASE', async () => {
    expect(platform.settings.notify.enabled).toBe(false);
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const instanceId = await startLeave(initiator, approver);
    expect(await eventually(async () => (await inboxOf(approver)).total === 1)).toBe(true);
    const [todo] = (await inboxOf(approver)).list;
    expect(todo).toMatchObject({
      category: 'bpm.todo',
      title: 'Approval needed',
      link: `/instances/${instanceId}`,
      read_at: null,
    });
    expect(todo.body).toContain('Leave request');
    const task = (await call('GET', `/api/v1/bpm/instances/${instanceId}`, approver.token)).body
      .data.tasks[0];
    await call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, approver.token, {});
    expect(
      await eventually(async () =>
        (await inboxOf(initiator)).list.some((n: any) => n.category === 'bpm.terminal'),
      ),
    ).toBe(true);
  });

  it('receives the new-device sign-in notice without NOTIFY_API_BASE', async () => {
    const user = await createUserWith(platform, []);
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: user.username, password: user.password },
      headers: { 'x-device-id': uniq('device') },
    });
    expect(res.status).toBe(200);
    const notice = async () =>
      (await inboxOf(user)).list.find((n: any) => n.category === 'security.new_device');
    expect(await eventually(async () => (await notice()) !== undefined, 15_000)).toBe(true);
    expect(await notice()).toMatchObject({
      title: 'New sign-in to your account',
      link: '/profile',
    });
    expect((await notice()).body).toContain('127.0.0.1');
  });

  it('counts, filters and marks the caller\u2019s notices read, one or all', async () => {
    const user = await createUserWith(platform, []);
    const inbox = systemInbox(platform.kernel);
    for (const title of ['one', 'two', 'three']) {
      await inbox.deliver({
        tenantId: 1,
        userIds: [user.id],
        category: 'test',
        title,
        body: 'b',
        link: null,
      });
    }
    expect((await call('GET', '/api/v1/inbox/unread-count', user.token)).body.data).toEqual({
      count: 3,
    });
    const list = await inboxOf(user);
    expect(list.list.map((n: any) => n.title)).toEqual(['three', 'two', 'one']);
    const read = await call('PUT', `/api/v1/inbox/${list.list[2].id}/read`, user.token);
    expect(read.status).toBe(200);
    const readAt = read.body.data.read_at;
    expect(readAt).not.toBeNull();
    // Marking again keeps the first time it was read.
    expect(
      (await call('PUT', `/api/v1/inbox/${list.list[2].id}/read`, user.token)).body.data.read_at,
    ).toBe(readAt);
    expect((await inboxOf(user, '&unread=true')).list.map((n: any) => n.title)).toEqual([
      'three',
      'two',
    ]);
    expect((await inboxOf(user, '&unread=false')).list.map((n: any) => n.title)).toEqual(['one']);
    expect((await call('PUT', '/api/v1/inbox/read-all', user.token)).body.data).toEqual({
      updated: 2,
    });
    expect((await call('GET', '/api/v1/inbox/unread-count', user.token)).body.data.count).toBe(0);
  });

  it('never shows or lets anyone mark another user\u2019s notice (404), in or across tenants', async () => {
    const owner = await createUserWith(platform, []);
    const other = await createUserWith(platform, ['*']);
    await systemInbox(platform.kernel).deliver({
      tenantId: 1,
      userIds: [owner.id, owner.id],
      category: 'test',
      title: uniq('private'),
      body: 'b',
      link: '/x',
    });
    const [notice] = (await inboxOf(owner)).list;
    expect((await inboxOf(owner)).total).toBe(1); // the repeated id got one copy
    expect((await inboxOf(other)).list.map((n: any) => n.id)).not.toContain(notice.id);
    const foreign = await call('PUT', `/api/v1/inbox/${notice.id}/read`, other.token);
    expect([foreign.status, foreign.body.code]).toEqual([404, 40400]);
    await call('PUT', '/api/v1/inbox/read-all', other.token);
    // A notice addressed to the owner's id under another tenant reaches nobody there.
    const tenant = await createTenant(platform, admin);
    const stranger = await createUserIn(platform, tenant, []);
    await systemInbox(platform.kernel).deliver({
      tenantId: tenant.id,
      userIds: [owner.id],
      category: 'test',
      title: 'misdirected',
      body: 'b',
      link: null,
    });
    expect((await inboxOf(stranger)).total).toBe(0);
    expect((await inboxOf(owner)).list.map((n: any) => n.title)).not.toContain('misdirected');
    expect((await inboxOf(owner)).list[0].read_at).toBeNull();
  });

  it('refuses bad input with its envelope error', async () => {
    const user = await createUserWith(platform, []);
    for (const query of ['unread=maybe', 'page=0', 'page_size=x']) {
      const res = await call('GET', `/api/v1/inbox?${query}`, user.token);
      expect([res.status, res.body.code], query).toEqual([400, 40000]);
    }
    expect((await call('PUT', '/api/v1/inbox/abc/read', user.token)).body.code).toBe(40000);
    expect((await call('PUT', '/api/v1/inbox/987654321/read', user.token)).status).toBe(404);
    expect((await platform.call('GET', '/api/v1/inbox')).status).toBe(401);
  });
});
