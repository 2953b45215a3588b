import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { createTenantWithAdmin } from '../identity/identity-fixtures.js';
import { createDefinition, createUserWith, singleApproval } from './fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

type User = Awaited<ReturnType<typeof createUserWith>>;
const db = () => platform.kernel.database.db.withTables<BpmTables>();
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

async function publish(tree: unknown, token = admin) {
  const created = await createDefinition(platform, token, { node_tree: tree });
  expect(created.status).toBe(200);
  const res = await platform.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.data as { id: number; key: string };
}

async function start(token: string, key: string) {
  const res = await platform.call('POST', '/api/v1/bpm/instances', {
    token,
    body: { definition_key: key, form: { reason: 'Family', days: 2 } },
  });
  expect(res.status).toBe(200);
  return res.body.data as { id: number };
}

async function pendingTaskOf(token: string, instanceId: number) {
  const todo = await platform.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', { token });
  return todo.body.data.list.find((t: any) => t.instance_id === instanceId) as { id: number };
}

async function act(token: string, taskId: number, action: string, body: unknown = {}) {
  const res = await platform.call('POST', `/api/v1/bpm/tasks/${taskId}/${action}`, {
    token,
    body,
  });
  expect(res.status).toBe(200);
}

async function stats(token = admin) {
  const res = await platform.call('GET', '/api/v1/bpm/stats', { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);
const todayOf = (data: any) => data.trend_30d.at(-1);

describe('BPM stats', () => {
  it('answers 403 to anyone but a platform admin, a tenant administrator included', async () => {
    const user = await createUserWith(platform, ['bpm:definition:list']);
    const own = await platform.call('GET', '/api/v1/bpm/stats', { token: user.token });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe(40300);
    const other = await createTenantWithAdmin(platform, admin);
    const res = await platform.call('GET', '/api/v1/bpm/stats', { token: other.token });
    expect(res.status).toBe(403);
    expect((await platform.call('GET', '/api/v1/bpm/stats')).status).toBe(401);
  });

  it('lists every status and 30 consecutive days ending today (UTC), oldest first', async () => {
    const data = await stats();
    expect(Object.keys(data.status_distribution).sort()).toEqual([
      'approved',
      'canceled',
      'rejected',
      'running',
      'suspended',
      'terminated',
    ]);
    expect(data.trend_30d).toHaveLength(30);
    const dates = data.trend_30d.map((d: any) => d.date);
    expect(dates.at(-1)).toBe(todayUtc());
    for (let i = 1; i < dates.length; i++) {
      expect(Date.parse(dates[i]) - Date.parse(dates[i - 1])).toBe(DAY_MS);
    }
    for (const day of data.trend_30d) {
      expect(Object.keys(day).sort()).toEqual(['date', 'finished', 'started']);
    }
    expect(data.bottlenecks.length).toBeLessThanOrEqual(10);
  });

  it('counts instances by status, per day and per definition', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const before = await stats();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await start(initiator.token, def.key)).id);
    await act(approver.token, (await pendingTaskOf(approver.token, ids[0]!)).id, 'approve');
    await act(approver.token, (await pendingTaskOf(approver.token, ids[1]!)).id, 'reject', {
      comment: 'no',
    });
    const canceled = await platform.call('POST', `/api/v1/bpm/instances/${ids[2]}/cancel`, {
      token: initiator.token,
      body: {},
    });
    expect(canceled.body.data.status).toBe('canceled');

    const after = await stats();
    const delta = (status: string) =>
      after.status_distribution[status] - before.status_distribution[status];
    expect({
      running: delta('running'),
      approved: delta('approved'),
      rejected: delta('rejected'),
      canceled: delta('canceled'),
      suspended: delta('suspended'),
      terminated: delta('terminated'),
    }).toEqual({ running: 1, approved: 1, rejected: 1, canceled: 1, suspended: 0, terminated: 0 });
    expect(todayOf(after).started - todayOf(before).started).toBe(4);
    // One step approved and one rejected in the last 24 hours; the cancel decided nothing.
    expect(after.last_24h.approved - before.last_24h.approved).toBe(1);
    expect(after.last_24h.rejected - before.last_24h.rejected).toBe(1);
    expect(todayOf(after).finished - todayOf(before).finished).toBe(3);
    expect(after.definitions.find((d: any) => d.definition_key === def.key)).toMatchObject({
      finished: 3,
      approved: 1,
    });
    expect(after.definitions.find((d: any) => d.definition_key === def.key).approval_rate).toBe(
      1 / 3,
    );

    // Durations of 1, 2 and 3 hours: the mean start-to-finish time is 2 hours.
    for (const [i, hours] of [1, 2, 3].entries()) {
      await sql`UPDATE bpm_instances SET finished_at = created_at + make_interval(hours => ${hours}::int)
                WHERE id = ${ids[i]!}`.execute(db());
    }
    // A decision older than 24 hours leaves the count.
    await sql`UPDATE bpm_tasks SET finished_at = now() - interval '25 hours'
              WHERE instance_id = ${ids[0]!} AND kind = 'approval'`.execute(db());
    const timed = await stats();
    expect(timed.last_24h.approved - before.last_24h.approved).toBe(0);
    expect(timed.last_24h.rejected - before.last_24h.rejected).toBe(1);
    expect(timed.definitions.find((d: any) => d.definition_key === def.key)).toEqual({
      definition_key: def.key,
      finished: 3,
      approved: 1,
      approval_rate: 1 / 3,
      avg_duration_ms: 2 * HOUR_MS,
    });
  });

  it('reports no rate and no duration (null, not 0) for a definition with nothing finished', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]));
    await start(initiator.token, def.key);
    expect((await stats()).definitions.find((d: any) => d.definition_key === def.key)).toEqual({
      definition_key: def.key,
      finished: 0,
      approved: 0,
      approval_rate: null,
      avg_duration_ms: null,
    });
  });

  it('ranks the slowest approval nodes first, with their pending tasks', async () => {
    const [initiator, first, second] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const step = (id: string, name: string, user: User, child: unknown) => ({
      id,
      type: 'approval',
      name,
      assignee: { type: 'users', userIds: [user.id] },
      mode: 'or',
      child,
    });
    const def = await publish({
      id: 'start',
      type: 'start',
      name: 'Submit',
      child: step('check', 'First check', first, step('sign', 'Sign-off', second, null)),
    });
    const [one, two] = [
      await start(initiator.token, def.key),
      await start(initiator.token, def.key),
    ];
    for (const instance of [one, two]) {
      await act(first.token, (await pendingTaskOf(first.token, instance.id)).id, 'approve');
    }
    await act(second.token, (await pendingTaskOf(second.token, one.id)).id, 'approve');

    // The first node's tasks took 10 and 12 days, the sign-off 9: far above anything else here.
    const backdate = (instanceId: number, nodeId: string, days: number) =>
      sql`UPDATE bpm_tasks SET created_at = finished_at - make_interval(days => ${days}::int)
          WHERE instance_id = ${instanceId} AND node_id = ${nodeId} AND status = 'done'`.execute(
        db(),
      );
    await backdate(one.id, 'check', 10);
    await backdate(two.id, 'check', 12);
    await backdate(one.id, 'sign', 9);

    const { bottlenecks } = await stats();
    expect(bottlenecks.length).toBeLessThanOrEqual(10);
    expect(bottlenecks.slice(0, 2)).toEqual([
      {
        definition_key: def.key,
        node_id: 'check',
        node_name: 'First check',
        avg_duration_ms: 11 * DAY_MS,
        pending: 0,
      },
      {
        definition_key: def.key,
        node_id: 'sign',
        node_name: 'Sign-off',
        avg_duration_ms: 9 * DAY_MS,
        pending: 1,
      },
    ]);
    const durations = bottlenecks.map((b: any) => b.avg_duration_ms);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
  });

  it('does not count the instances of another tenant', async () => {
    const before = await stats();
    const other = await createTenantWithAdmin(platform, admin);
    // The tenant's admin starts it and is its approver: self-approval allowed on purpose.
    const tree = singleApproval([other.adminId]) as any;
    tree.child.allowInitiator = true;
    const def = await publish(tree, other.token);
    const instance = await start(other.token, def.key);
    await act(other.token, (await pendingTaskOf(other.token, instance.id)).id, 'approve');
    await start(other.token, def.key);
    const after = await stats();
    expect(after).toEqual(before);
    expect(after.definitions.map((d: any) => d.definition_key)).not.toContain(def.key);
  });
});
