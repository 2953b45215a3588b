import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/logger.js';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { TimeoutScanner } from '../../src/services/bpm/jobs/timeout.scanner.js';
import { InstanceRunner } from '../../src/services/bpm/runtime/runner.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers, testDirectoryOf } from './fixtures.js';

// Every task and instance action end to end through HTTP, answered from the state it produced.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);
const db = () => platform.kernel.database.db.withTables<BpmTables>();

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const timeline = async (token: string, id: number) =>
  (await platform.call('GET', `/api/v1/bpm/instances/${id}/timeline`, { token })).body
    .data as any[];

describe('task actions', () => {
  it('transfers twice; each answer is the state the transfer produced, and the timeline names the new holder', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const first = await act(a, task.id, 'transfer', { to_user_id: b.id });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      assignee_id: b.id,
      original_assignee_id: a.id,
      status: 'pending',
    });
    const second = await act(b, task.id, 'transfer', { to_user_id: c.id });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ assignee_id: c.id, original_assignee_id: a.id });
    const entries = (await timeline(initiator.token, id)).filter((e) => e.action === 'transfer');
    expect(entries.map((e) => [e.operator_id, e.details])).toEqual([
      [a.id, { task_id: task.id, to_user_id: b.id }],
      [b.id, { task_id: task.id, to_user_id: c.id }],
    ]);
    const done = await act(c, task.id, 'approve', {});
    expect(done.body.data.instance.status).toBe('approved');
  });

  it('delegates and resolves: the answer to resolve is the task back with the delegator, and the delegation is closed', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const delegated = await act(a, task.id, 'delegate', { to_user_id: b.id });
    expect(delegated.status).toBe(200);
    expect(delegated.body.data).toMatchObject({ assignee_id: b.id, delegator_id: a.id });
    expect(delegated.body.data.actions).toEqual([]);
    expect((await pendingTaskOf(b, id)).delegator_id).toBe(a.id);
    expect((await act(b, task.id, 'approve', {})).body.code).toBe(40301);
    const resolved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/resolve`, {
      token: b.token,
      body: { comment: 'done reading' },
      headers: { 'Idempotency-Key': `resolve-${task.id}` },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({
      assignee_id: a.id,
      delegator_id: null,
      status: 'pending',
    });
    const replay = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/resolve`, {
      token: b.token,
      body: { comment: 'done reading' },
      headers: { 'Idempotency-Key': `resolve-${task.id}` },
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(resolved.body);
    const rows = await db()
      .selectFrom('bpm_delegations')
      .selectAll()
      .where('task_id', '=', task.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ from_user_id: a.id, to_user_id: b.id });
    expect(rows[0]!.resolved_at).toBeInstanceOf(Date);
    const entries = await timeline(initiator.token, id);
    expect(entries.find((e) => e.action === 'delegate').details).toEqual({
      task_id: task.id,
      to_user_id: b.id,
    });
    expect((await act(a, task.id, 'approve', {})).body.data.instance.status).toBe('approved');
  });

  it('adds signers who join an AND node; the timeline names them', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id], { mode: 'and' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const signed = await act(a, task.id, 'add-sign', { user_ids: [b.id, c.id] });
    expect(signed.status).toBe(200);
    expect(signed.body.data.instance.tasks.map((t: any) => t.assignee_id).sort()).toEqual(
      [a.id, b.id, c.id].sort(),
    );
    expect(
      (await timeline(initiator.token, id)).find((e) => e.action === 'add_sign').details,
    ).toEqual({
      user_ids: [b.id, c.id],
      position: 'parallel',
    });
    await act(a, task.id, 'approve', {});
    await act(b, (await pendingTaskOf(b, id)).id, 'approve', {});
    const last = await act(c, (await pendingTaskOf(c, id)).id, 'approve', {});
    expect(last.body.data.instance.status).toBe('approved');
  });

  it('returns to the initiator, who resubmits a new form; the flow runs again in round 2', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    const returned = await act(a, task.id, 'return', { to: 'initiator', comment: 'more detail' });
    expect(returned.status).toBe(200);
    expect(returned.body.data).toMatchObject({ status: 'done', result: 'returned' });
    const detail = await h().get(initiator, `/api/v1/bpm/instances/${id}`);
    expect(detail.body.data.actions).toContain('resubmit');
    const resubmitted = await platform.call('POST', `/api/v1/bpm/instances/${id}/resubmit`, {
      token: initiator.token,
      body: { form: { reason: 'better', days: 3 } },
    });
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.body.data).toMatchObject({
      round: 2,
      status: 'running',
      form: { reason: 'better', days: 3 },
    });
    const again = await pendingTaskOf(a, id);
    expect(again.round).toBe(2);
    expect((await act(a, again.id, 'approve', {})).body.data.instance.status).toBe('approved');
  });

  it('lets the initiator cancel a request an approver returned to them, instead of resubmitting', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    await act(a, (await pendingTaskOf(a, id)).id, 'return', { to: 'initiator', comment: 'redo' });
    expect((await get(initiator, `/api/v1/bpm/instances/${id}`)).body.data.actions).toEqual([
      'resubmit',
      'cancel',
    ]);
    const canceled = await platform.call('POST', `/api/v1/bpm/instances/${id}/cancel`, {
      token: initiator.token,
      body: { comment: 'no longer needed' },
    });
    expect(canceled.status).toBe(200);
    const detail = (await get(initiator, `/api/v1/bpm/instances/${id}`)).body.data;
    expect(detail.status).toBe('canceled');
    expect(detail.tasks.find((t: any) => t.kind === 'resubmit').status).toBe('canceled');
    expect(await pendingTaskOf(initiator, id)).toBeUndefined();
  });

  it('decides a vote node by its pass ratio: two of three approvals pass it, refusing add-sign', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a, b, c] = await users(4);
    const [d] = await users(1);
    const def = await publish(
      chain(
        approval('vote', [a.id, b.id, c.id], { mode: 'vote', passRatio: 0.6 }),
        approval('next', [d.id]),
      ),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const taskOf = async (u: typeof a) => (await pendingTaskOf(u, id)).id;
    expect((await get(a, `/api/v1/bpm/tasks/${await taskOf(a)}`)).body.data.actions).not.toContain(
      'add_sign',
    );
    await act(a, await taskOf(a), 'reject', { comment: 'no' });
    await act(b, await taskOf(b), 'approve', {});
    const cTask = await taskOf(c);
    const last = await act(c, cTask, 'approve', {});
    expect(last.body.data.instance.current_node_ids).toEqual(['next']);
  });

  it('approves for someone who already approved on the path (autoApproveRepeats: any), logged as the system', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, x, y] = await users(3);
    const def = await publish({
      ...chain(approval('a', [x.id]), approval('b', [y.id]), approval('c', [x.id])),
      autoApproveRepeats: 'any',
    });
    const id = (await start(initiator, def.key)).body.data.id;
    await act(x, (await pendingTaskOf(x, id)).id, 'approve', {});
    const last = await act(y, (await pendingTaskOf(y, id)).id, 'approve', {});
    expect(last.body.data.instance.status).toBe('approved');
    const entry = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
      (e: any) => e.action === 'auto_approve',
    );
    expect(entry).toMatchObject({
      node_id: 'c',
      operator_id: 0,
      comment: `user ${x.id} approved earlier on this path`,
    });
  });

  it('returns to the previous node a person approved, in a new round', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(
      chain(approval('first', [a.id]), approval('second', [b.id], { allowBackPrev: true })),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    await act(a, (await pendingTaskOf(a, id)).id, 'approve', {});
    const atB = await pendingTaskOf(b, id);
    const back = await act(b, atB.id, 'return', { to: 'previous', comment: 'check again' });
    expect(back.status).toBe(200);
    expect(back.body.data.instance.current_node_ids).toEqual(['first']);
    const again = await pendingTaskOf(a, id);
    expect(again).toMatchObject({ node_id: 'first', round: 2 });
  });

  it('skips a node passed by a timeout approval when returning to the previous one', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(
      chain(
        approval('first', [a.id], { timeout: { hours: 100, action: 'auto_approve' } }),
        approval('second', [b.id], { allowBackPrev: true }),
      ),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    await act(a, (await pendingTaskOf(a, id)).id, 'approve', {});
    await act(b, (await pendingTaskOf(b, id)).id, 'return', { to: 'previous', comment: 'again' });
    // Round 2 at `first`: this time the timeout approves it, as the system.
    await db()
      .updateTable('bpm_tasks')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('instance_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    const runner = new InstanceRunner({
      db: db(),
      directoryOf: testDirectoryOf(db()),
      notify: { enabled: false },
    });
    await new TimeoutScanner({ db: db(), runner, logger: createLogger('silent') }).runOnce();
    const atB = await pendingTaskOf(b, id);
    expect(atB).toMatchObject({ node_id: 'second', round: 2 });
    const detail = await h().get(b, `/api/v1/bpm/tasks/${atB.id}`);
    expect(detail.body.data.actions).not.toContain('return_previous');
    const refused = await act(b, atB.id, 'return', { to: 'previous', comment: 'again' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe(40900);
  });

  it('lists the caller\u2019s task actions in the instance detail', async () => {
    const { publish, start, users, get } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    const detail = await get(a, `/api/v1/bpm/instances/${id}`);
    expect(detail.body.data.actions).toEqual([
      'approve',
      'reject',
      'transfer',
      'return_initiator',
      'add_sign',
      'delegate',
    ]);
    expect((await get(initiator, `/api/v1/bpm/instances/${id}`)).body.data.actions).toEqual([
      'urge',
      'cancel',
    ]);
  });

  it('answers 40301 to a CC recipient or a former holder who acts on a task they can see', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, reader, a, b] = await users(4);
    const def = await publish(
      chain(
        { id: 'copy', type: 'cc', name: 'Copy', assignee: { type: 'users', userIds: [reader.id] } },
        approval('n', [a.id]),
      ),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    await act(a, task.id, 'transfer', { to_user_id: b.id });
    for (const user of [reader, a, initiator]) {
      const res = await act(user, task.id, 'approve', {});
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(40301);
    }
  });
});

describe('a running instance and its definition', () => {
  it('keeps its version across the publish of a new one', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a, b] = await users(3);
    const v1 = await publish(chain(approval('n', [a.id])));
    const id = (await start(initiator, v1.key)).body.data.id;
    const draft = await platform.call('POST', `/api/v1/bpm/definitions/${v1.id}/new-version`, {
      token: admin,
    });
    await platform.call('PUT', `/api/v1/bpm/definitions/${draft.body.data.id}`, {
      token: admin,
      body: {
        ...draft.body.data,
        node_tree: chain(approval('other', [b.id]), approval('more', [b.id])),
      },
    });
    const v2 = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${draft.body.data.id}/publish`,
      { token: admin },
    );
    expect(v2.body.data.version).toBe(2);
    const task = await pendingTaskOf(a, id);
    const done = await act(a, task.id, 'approve', {});
    expect(done.body.data.instance).toMatchObject({
      status: 'approved',
      definition_version: 1,
      path: ['start', 'n'],
    });
    const fresh = await start(initiator, v1.key);
    expect(fresh.body.data).toMatchObject({ definition_version: 2, current_node_ids: ['other'] });
  });
});

it('claims due tasks with SKIP LOCKED: a task locked elsewhere is skipped, not waited for', async ({
  skip,
}) => {
  // PGlite has one session: no second one can hold a lock.
  const url = platform.settings.database.url;
  if (!url) skip();
  const { publish, start, users } = h();
  const [initiator, a] = await users(2);
  const def = await publish(
    chain(approval('n', [a.id], { timeout: { hours: 100, action: 'remind' } })),
  );
  const id = (await start(initiator, def.key)).body.data.id;
  await db()
    .updateTable('bpm_tasks')
    .set({ due_at: new Date(Date.now() - 1000) })
    .where('instance_id', '=', id)
    .execute();
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT id FROM bpm_tasks WHERE instance_id = $1 FOR UPDATE', [id]);
    const runner = new InstanceRunner({
      db: db(),
      directoryOf: testDirectoryOf(db()),
      notify: { enabled: false },
    });
    const scanner = new TimeoutScanner({ db: db(), runner, logger: createLogger('silent') });
    // Nothing acted on (0), and at once: the locked task is skipped rather than waited for.
    const outcome = await Promise.race([
      scanner.runOnce(),
      new Promise((r) => setTimeout(() => r('blocked'), 3000)),
    ]);
    expect(outcome).toBe(0);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
});
