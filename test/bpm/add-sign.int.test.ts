import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers, type User } from './fixtures.js';

// Before (前加签) and after (后加签) add-sign, and reduce-sign on them (docs/api.md, Part 2).

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const statusOf = (data: any, user: User) =>
  data.instance.tasks.filter((t: any) => t.assignee_id === user.id).map((t: any) => t.status);

const signEntry = async (user: User, id: number) =>
  (await h().get(user, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
    (e: any) => e.action === 'add_sign',
  );

describe('before add-sign', () => {
  it('the caller waits while the added users approve in order, then decides', async () => {
    const { publish, start, pendingTaskOf, act, get, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id], { mode: 'and' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const signed = await act(a, task.id, 'add-sign', {
      user_ids: [b.id, c.id],
      position: 'before',
      comment: 'finance first',
    });
    expect(signed.status).toBe(200);
    expect(signed.body.data.status).toBe('waiting');
    expect([statusOf(signed.body.data, b), statusOf(signed.body.data, c)]).toEqual([
      ['pending'],
      ['waiting'],
    ]);
    expect(signed.body.data.actions).toEqual(['reduce_sign']);
    expect(await signEntry(initiator, id)).toMatchObject({
      operator_id: a.id,
      comment: 'finance first',
      details: { user_ids: [b.id, c.id], position: 'before' },
    });
    const early = await act(a, task.id, 'approve', {});
    expect([early.status, early.body.code]).toEqual([409, 40900]);
    expect(await pendingTaskOf(c, id)).toBeUndefined();
    await act(b, (await pendingTaskOf(b, id)).id, 'approve', {});
    await act(c, (await pendingTaskOf(c, id)).id, 'approve', {});
    expect((await get(a, `/api/v1/bpm/tasks/${task.id}`)).body.data.status).toBe('pending');
    const last = await act(a, task.id, 'approve', {});
    expect(last.body.data.instance.status).toBe('approved');
  });

  it('a rejection by an added user applies the node\u2019s on-reject routing', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(chain(approval('n', [a.id], { onReject: 'initiator' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'add-sign', { user_ids: [b.id], position: 'before' });
    const rejected = await act(b, (await pendingTaskOf(b, id)).id, 'reject', { comment: 'no' });
    expect(rejected.status).toBe(200);
    const detail = await h().get(initiator, `/api/v1/bpm/instances/${id}`);
    expect(detail.body.data.actions).toContain('resubmit');
    expect(statusOf(rejected.body.data, a)).toEqual(['canceled']);
  });

  it('the waiting caller reduces the chain; with nobody left their task reopens', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'add-sign', { user_ids: [b.id, c.id], position: 'before' });
    const first = await act(a, task.id, 'reduce-sign', { user_ids: [b.id] });
    expect(first.status).toBe(200);
    expect([statusOf(first.body.data, b), statusOf(first.body.data, c)]).toEqual([
      ['canceled'],
      ['pending'],
    ]);
    const second = await act(a, task.id, 'reduce-sign', { user_ids: [c.id] });
    expect(second.body.data.status).toBe('pending');
    expect((await act(a, task.id, 'approve', {})).body.data.instance.status).toBe('approved');
  });
});

describe('after add-sign', () => {
  it('approves the caller now; the node completes once the added users approved in order', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const signed = await act(a, task.id, 'add-sign', {
      user_ids: [b.id, c.id],
      position: 'after',
    });
    expect(signed.body.data).toMatchObject({ status: 'done', result: 'approved' });
    expect(signed.body.data.instance.status).toBe('running');
    expect(await signEntry(initiator, id)).toMatchObject({
      details: { user_ids: [b.id, c.id], position: 'after' },
    });
    expect(await pendingTaskOf(c, id)).toBeUndefined();
    const mid = await act(b, (await pendingTaskOf(b, id)).id, 'approve', {});
    expect(mid.body.data.instance.status).toBe('running');
    const last = await act(c, (await pendingTaskOf(c, id)).id, 'approve', {});
    expect(last.body.data.instance.status).toBe('approved');
  });
});

describe('the rules of add-sign hold for before and after', () => {
  it.each(['before', 'after'])('%s: refused in sequential mode (40900)', async (position) => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id, c.id], { mode: 'sequential' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const res = await act(a, (await pendingTaskOf(a, id)).id, 'add-sign', {
      user_ids: [b.id],
      position,
    });
    expect([res.status, res.body.code]).toEqual([409, 40900]);
  });

  it.each(['before', 'after'])(
    '%s: never the initiator, the caller, a holder, or an unknown user (40001)',
    async (position) => {
      const { publish, start, pendingTaskOf, act, users } = h();
      const [initiator, a, b] = await users(3);
      const def = await publish(chain(approval('n', [a.id, b.id], { mode: 'and' })));
      const id = (await start(initiator, def.key)).body.data.id;
      const task = await pendingTaskOf(a, id);
      for (const userId of [initiator.id, a.id, b.id, 987654321]) {
        const res = await act(a, task.id, 'add-sign', { user_ids: [userId], position });
        expect([res.status, res.body.code]).toEqual([400, 40001]);
      }
      const detail = await h().get(a, `/api/v1/bpm/tasks/${task.id}`);
      expect(detail.body.data.status).toBe('pending');
      expect(detail.body.data.instance.tasks).toHaveLength(2);
      expect(detail.body.data.actions).toContain('add_sign');
    },
  );

  it('refuses an unknown position (40001)', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const res = await act(a, (await pendingTaskOf(a, id)).id, 'add-sign', {
      user_ids: [b.id],
      position: 'middle',
    });
    expect([res.status, res.body.code]).toEqual([400, 40001]);
  });
});
