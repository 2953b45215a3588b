import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers } from './fixtures.js';

// Beyond the contract: urge, withdraw, batch approve/reject (docs/api.md, Part 2).

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);
const db = () => platform.kernel.database.db.withTables<BpmTables>();

beforeAll(async () => {
  // Notifications on (the receiver is unreachable: rows stay in the outbox, where they are counted).
  platform = await startTestPlatform({
    NOTIFY_API_BASE: 'http://127.0.0.1:9/notify',
    NOTIFY_API_TOKEN: 'notify-Vb4-8kP2-token',
  });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const urgeRows = async (instanceId: number) =>
  (
    await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bpm_outbox WHERE kind = 'notification' AND target = 'urge'
        AND (payload::jsonb ->> 'instance_id')::bigint = ${instanceId}`.execute(db())
  ).rows[0]!.n;

describe('urge', () => {
  it('reminds the current approvers through the outbox once an hour per task, logged', async () => {
    const { publish, start, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(chain(approval('n', [a.id, b.id], { mode: 'and' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const urged = await platform.call('POST', `/api/v1/bpm/instances/${id}/urge`, {
      token: initiator.token,
      body: { comment: 'please' },
    });
    expect(urged.status).toBe(200);
    expect(await urgeRows(id)).toBe(1);
    const again = await platform.call('POST', `/api/v1/bpm/instances/${id}/urge`, {
      token: initiator.token,
      body: {},
    });
    expect([again.status, again.body.code]).toEqual([409, 40900]);
    expect(await urgeRows(id)).toBe(1);
    const entries = (await h().get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data;
    const entry = entries.filter((e: any) => e.action === 'urge');
    expect(entry).toHaveLength(1);
    expect(entry[0]).toMatchObject({ operator_id: initiator.id, comment: 'please' });
    expect(entry[0].details.user_ids.sort()).toEqual([a.id, b.id].sort());
    // An hour later the same tasks may be urged again.
    await db()
      .updateTable('bpm_tasks')
      .set({ urged_at: new Date(Date.now() - 3_600_001) })
      .where('instance_id', '=', id)
      .execute();
    const later = await platform.call('POST', `/api/v1/bpm/instances/${id}/urge`, {
      token: initiator.token,
      body: {},
    });
    expect(later.status).toBe(200);
    expect(await urgeRows(id)).toBe(2);
  });

  it('is the initiator\u2019s alone (40301)', async () => {
    const { publish, start, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const res = await platform.call('POST', `/api/v1/bpm/instances/${id}/urge`, {
      token: a.token,
      body: {},
    });
    expect([res.status, res.body.code]).toEqual([403, 40301]);
  });
});

describe('withdraw', () => {
  it('takes back the last approval: the next node\u2019s tasks are canceled and the approver\u2019s reopens', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(chain(approval('first', [a.id]), approval('second', [b.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const approved = await act(a, task.id, 'approve', {});
    expect(approved.body.data.actions).toEqual(['withdraw']);
    const withdrawn = await act(a, task.id, 'withdraw', { comment: 'too fast' });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data).toMatchObject({ status: 'pending', result: null });
    expect(withdrawn.body.data.instance).toMatchObject({
      current_node_ids: ['first'],
      path: ['start', 'first'],
    });
    expect(withdrawn.body.data.instance.tasks.find((t: any) => t.node_id === 'second').status).toBe(
      'canceled',
    );
    expect(await pendingTaskOf(b, id)).toBeUndefined();
    const entries = (await h().get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data;
    expect(entries.at(-1)).toMatchObject({
      action: 'withdraw',
      operator_id: a.id,
      comment: 'too fast',
    });
    expect((await act(a, task.id, 'approve', {})).body.data.instance.current_node_ids).toEqual([
      'second',
    ]);
  });

  raceIt('lets one of a withdrawal and the next approval win when they race', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(
      chain(approval('first', [a.id]), approval('second', [b.id]), approval('third', [c.id])),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'approve', {});
    const next = await pendingTaskOf(b, id);
    const [withdrawn, approved] = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT id FROM bpm_instances WHERE id = $1 FOR UPDATE',
      [id],
      () => Promise.all([act(a, task.id, 'withdraw', {}), act(b, next.id, 'approve', {})]),
      2,
    );
    expect([withdrawn.status, approved.status].sort()).toEqual([200, 409]);
    const instance = (await get(initiator, `/api/v1/bpm/instances/${id}`)).body.data;
    const statusOf = (nodeId: string) =>
      instance.tasks.filter((t: any) => t.node_id === nodeId).map((t: any) => t.status);
    if (withdrawn.status === 200) {
      expect(instance.current_node_ids).toEqual(['first']);
      expect([statusOf('first'), statusOf('second'), statusOf('third')]).toEqual([
        ['pending'],
        ['canceled'],
        [],
      ]);
    } else {
      expect(instance.current_node_ids).toEqual(['third']);
      expect([statusOf('first'), statusOf('second'), statusOf('third')]).toEqual([
        ['done'],
        ['done'],
        ['pending'],
      ]);
    }
  });

  it('refuses once the next node has acted (40900) and to anyone but the approver (40301)', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(
      chain(approval('first', [a.id]), approval('second', [b.id]), approval('third', [c.id])),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'approve', {});
    expect((await act(b, task.id, 'withdraw', {})).body.code).toBe(40301);
    await act(b, (await pendingTaskOf(b, id)).id, 'approve', {});
    const late = await act(a, task.id, 'withdraw', {});
    expect([late.status, late.body.code]).toEqual([409, 40900]);
  });

  it('gives an `or` node\u2019s co-holders their tasks back and undoes the approval\u2019s form edit', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(
      chain(
        approval('first', [a.id, b.id], { mode: 'or', editableFields: ['reason'] }),
        approval('second', [c.id]),
      ),
    );
    const id = (await start(initiator, def.key, { reason: 'original', days: 1 })).body.data.id;
    const task = await pendingTaskOf(a, id);
    const approved = await act(a, task.id, 'approve', { form: { reason: 'edited' } });
    expect(approved.body.data.instance.form.reason).toBe('edited');
    expect(await pendingTaskOf(b, id)).toBeUndefined();

    const withdrawn = await act(a, task.id, 'withdraw', {});
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data.instance.form.reason).toBe('original');
    expect(await pendingTaskOf(b, id)).toBeDefined();
    const edits = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data
      .filter((e: any) => e.action === 'edit')
      .map((e: any) => e.details.changes);
    expect(edits).toEqual([
      [{ field: 'reason', before: 'original', after: 'edited' }],
      [{ field: 'reason', before: 'edited', after: 'original' }],
    ]);
    // Approved by the co-holder without an edit, then withdrawn: nothing is undone.
    const other = (await pendingTaskOf(b, id)).id;
    await act(b, other, 'approve', {});
    const again = await act(b, other, 'withdraw', {});
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.instance.form.reason).toBe('original');
    const after = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data;
    expect(after.filter((e: any) => e.action === 'edit')).toHaveLength(2);
  });

  it('refuses once the next approver transferred their task (passing it on is acting)', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('first', [a.id]), approval('second', [b.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'approve', {});
    const moved = await act(b, (await pendingTaskOf(b, id)).id, 'transfer', { to_user_id: c.id });
    expect(moved.status).toBe(200);
    const late = await act(a, task.id, 'withdraw', {});
    expect([late.status, late.body.code]).toEqual([409, 40900]);
    expect((await pendingTaskOf(c, id)).node_id).toBe('second');
  });
});

describe('CC copies', () => {
  it('are written and announced once per recipient and round, though the path runs through again', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a, b, reader] = await users(4);
    const copy = {
      id: 'copy',
      type: 'cc',
      name: 'Copy',
      assignee: { type: 'users', userIds: [reader.id] },
    };
    const def = await publish(chain(approval('first', [a.id]), copy, approval('second', [b.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'approve', {});
    // Withdrawn and approved again: the path passes the CC node a second time, in the same round.
    expect((await act(a, task.id, 'withdraw', {})).status).toBe(200);
    expect((await act(a, task.id, 'approve', {})).status).toBe(200);
    const ccRows = await db()
      .selectFrom('bpm_cc')
      .select(['user_id', 'round'])
      .where('instance_id', '=', id)
      .execute();
    expect(ccRows).toEqual([{ user_id: reader.id, round: 1 }]);
    const notices = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bpm_outbox WHERE kind = 'notification' AND target = 'cc'
        AND (payload::jsonb ->> 'instance_id')::bigint = ${id}`.execute(db());
    expect(notices.rows[0]!.n).toBe(1);
    const inbox = (await get(reader, '/api/v1/bpm/cc/my?page_size=100')).body.data.list;
    expect(inbox.filter((c: any) => c.instance_id === id)).toHaveLength(1);
  });
});

describe('reduce-sign', () => {
  it('removes an added approver who has not decided; the timeline names them', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id], { mode: 'and' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'add-sign', { user_ids: [b.id, c.id] });
    expect((await h().get(a, `/api/v1/bpm/tasks/${task.id}`)).body.data.actions).toContain(
      'reduce_sign',
    );
    const reduced = await act(a, task.id, 'reduce-sign', { user_ids: [b.id] });
    expect(reduced.status).toBe(200);
    const byUser = new Map(
      reduced.body.data.instance.tasks.map((t: any) => [t.assignee_id, t.status]),
    );
    expect([byUser.get(b.id), byUser.get(c.id)]).toEqual(['canceled', 'pending']);
    expect(await pendingTaskOf(b, id)).toBeUndefined();
    const entry = (await h().get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
      (e: any) => e.action === 'reduce_sign',
    );
    expect(entry).toMatchObject({ operator_id: a.id, details: { user_ids: [b.id] } });
    const again = await act(a, task.id, 'reduce-sign', { user_ids: [b.id] });
    expect([again.status, again.body.code]).toEqual([400, 40001]);
  });
});

describe('batch approve and reject', () => {
  it('acts on each task in its own transaction and lists each outcome', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, a, other] = await users(3);
    const def = await publish(chain(approval('n', [a.id])));
    const first = (await start(initiator, def.key)).body.data.id;
    const second = (await start(initiator, def.key)).body.data.id;
    const foreign = (await start(initiator, (await publish(chain(approval('n', [other.id])))).key))
      .body.data.id;
    const ids = [
      (await pendingTaskOf(a, first)).id,
      (await pendingTaskOf(other, foreign)).id,
      (await pendingTaskOf(a, second)).id,
    ];
    const res = await platform.call('POST', '/api/v1/bpm/tasks/batch', {
      token: a.token,
      body: { action: 'approve', task_ids: ids, comment: 'ok' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: 2, failed: 1 });
    expect(res.body.data.results.map((r: any) => [r.task_id, r.ok, r.code])).toEqual([
      [ids[0], true, null],
      [ids[1], false, 40400],
      [ids[2], true, null],
    ]);
    expect(res.body.data.results[0]).toMatchObject({
      status: 'done',
      result: 'approved',
      instance_status: 'approved',
    });
  });

  it('rejects with the comment for each, and refuses each without one (40003)', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const taskId = (await pendingTaskOf(a, id)).id;
    const bare = await platform.call('POST', '/api/v1/bpm/tasks/batch', {
      token: a.token,
      body: { action: 'reject', task_ids: [taskId] },
    });
    expect(bare.body.data.results[0]).toMatchObject({ ok: false, code: 40003 });
    const res = await platform.call('POST', '/api/v1/bpm/tasks/batch', {
      token: a.token,
      body: { action: 'reject', task_ids: [taskId], comment: 'no' },
    });
    expect(res.body.data.results[0]).toMatchObject({
      ok: true,
      result: 'rejected',
      instance_status: 'rejected',
    });
  });

  it('acts on a repeated task id once and reports it once, in the order first asked', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id])));
    const first = (await pendingTaskOf(a, (await start(initiator, def.key)).body.data.id)).id;
    const id2 = (await start(initiator, def.key)).body.data.id;
    const second = (await pendingTaskOf(a, id2)).id;
    const res = await platform.call('POST', '/api/v1/bpm/tasks/batch', {
      token: a.token,
      body: { action: 'approve', task_ids: [second, first, second, second] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: 2, failed: 0 });
    expect(res.body.data.results.map((r: any) => [r.task_id, r.ok])).toEqual([
      [second, true],
      [first, true],
    ]);
    const timeline = (await h().get(initiator, `/api/v1/bpm/instances/${id2}/timeline`)).body.data;
    expect(timeline.filter((e: any) => e.action === 'approve')).toHaveLength(1);
  });

  it('takes at most 50 tasks (40001)', async () => {
    const res = await platform.call('POST', '/api/v1/bpm/tasks/batch', {
      token: admin,
      body: { action: 'approve', task_ids: Array.from({ length: 51 }, (_, i) => i + 1) },
    });
    expect([res.status, res.body.code]).toEqual([400, 40001]);
  });
});

describe('what I handed on', () => {
  it('lists the tasks the caller transferred or delegated, with their holder and state now', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id])));
    const first = (await start(initiator, def.key)).body.data.id;
    const second = (await start(initiator, def.key)).body.data.id;
    const moved = await pendingTaskOf(a, first);
    await act(a, moved.id, 'transfer', { to_user_id: b.id });
    await act(b, moved.id, 'approve', {});
    const lent = await pendingTaskOf(a, second);
    await act(a, lent.id, 'delegate', { to_user_id: c.id });

    const list = (await get(a, '/api/v1/bpm/tasks/handed-over')).body.data;
    expect(list.total).toBe(2);
    expect(
      list.list.map((t: any) => [t.id, t.handover, t.handed_to_id, t.assignee_id, t.status]),
    ).toEqual([
      [lent.id, 'delegate', c.id, c.id, 'pending'],
      [moved.id, 'transfer', b.id, b.id, 'done'],
    ]);
    // b passed nothing on; the list is the caller's own.
    expect((await get(b, '/api/v1/bpm/tasks/handed-over')).body.data.total).toBe(0);
  });
});
