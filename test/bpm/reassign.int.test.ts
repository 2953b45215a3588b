import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers } from './fixtures.js';

// A leaver's tasks (BPM.md "reassign"): a platform admin moves one open task, or every open task
// of a user, to another active user.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const reassign = (token: string, taskId: number, body: Record<string, unknown>) =>
  platform.call('POST', `/api/v1/bpm/tasks/${taskId}/reassign`, { token, body });

describe('reassign', () => {
  it('moves a disabled user\u2019s task to another user, who can then decide it', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, leaver, successor] = await users(3);
    const def = await publish(chain(approval('n', [leaver.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(leaver, id);
    const disabled = await platform.call('PUT', `/api/v1/users/${leaver.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    // Disabling answers what the leaver still holds, so it can be handed on at once.
    expect(disabled.body.data).toMatchObject({ status: 'disabled', open_tasks: 1 });
    const renamed = await platform.call('PUT', `/api/v1/users/${successor.id}`, {
      token: admin,
      body: { nickname: 'Successor' },
    });
    expect(renamed.body.data).not.toHaveProperty('open_tasks');

    const moved = await reassign(admin, task.id, { to_user_id: successor.id, comment: 'left' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      status: 'pending',
      assignee_id: successor.id,
      original_assignee_id: leaver.id,
    });
    const entry = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
      (e: any) => e.action === 'reassign',
    );
    expect(entry).toMatchObject({
      comment: 'left',
      details: { task_id: task.id, from_user_id: leaver.id, to_user_id: successor.id },
    });
    const audited = await platform.call(
      'GET',
      `/api/v1/logs/audit?action=reassign&target_id=${task.id}`,
      {
        token: admin,
      },
    );
    expect(audited.body.data.list).toEqual([
      expect.objectContaining({ action: 'reassign', target_type: 'task' }),
    ]);
    const approved = await act(successor, (await pendingTaskOf(successor, id)).id, 'approve', {});
    expect(approved.body.data.instance.status).toBe('approved');
  });

  it('is a platform admin\u2019s alone (40301), for an open task (40900) of the tenant (404)', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, holder, other] = await users(3);
    const def = await publish(chain(approval('n', [holder.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(holder, id);
    const byHolder = await reassign(holder.token, task.id, { to_user_id: other.id });
    expect([byHolder.status, byHolder.body.code]).toEqual([403, 40301]);
    const unknown = await reassign(admin, 987_654_321, { to_user_id: other.id });
    expect([unknown.status, unknown.body.code]).toEqual([404, 40400]);
    const toInitiator = await reassign(admin, task.id, { to_user_id: initiator.id });
    expect([toInitiator.status, toInitiator.body.code]).toEqual([400, 40001]);
    await act(holder, task.id, 'approve', {});
    const late = await reassign(admin, task.id, { to_user_id: other.id });
    expect([late.status, late.body.code]).toEqual([409, 40900]);
  });

  it('moves every open task of one user at once, leaving those the new holder cannot take', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, leaver, successor, peer] = await users(4);
    const solo = await publish(chain(approval('n', [leaver.id])));
    const shared = await publish(chain(approval('n', [leaver.id, successor.id], { mode: 'and' })));
    const first = (await start(initiator, solo.key)).body.data.id;
    const second = (await start(initiator, solo.key)).body.data.id;
    const both = (await start(initiator, shared.key)).body.data.id;
    const stuck = (await pendingTaskOf(leaver, both)).id;

    const refused = await platform.call('POST', '/api/v1/bpm/admin/reassign', {
      token: peer.token,
      body: { from_user_id: leaver.id, to_user_id: successor.id },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 40301]);

    const res = await platform.call('POST', '/api/v1/bpm/admin/reassign', {
      token: admin,
      body: { from_user_id: leaver.id, to_user_id: successor.id, comment: 'handover' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      reassigned: 2,
      skipped: [{ task_id: stuck, code: 40001, message: expect.any(String) }],
    });
    expect((await pendingTaskOf(successor, first)).original_assignee_id).toBe(leaver.id);
    expect(await pendingTaskOf(successor, second)).toBeDefined();
    expect((await pendingTaskOf(leaver, both)).id).toBe(stuck);
    expect(await pendingTaskOf(leaver, first)).toBeUndefined();
  });
});
