import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, singleApproval } from './fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());
const db = () => platform.kernel.database.db;

type User = Awaited<ReturnType<typeof createUserWith>>;

async function publish(tree: unknown, extra: Record<string, unknown> = {}) {
  const created = await createDefinition(platform, admin, { node_tree: tree, ...extra });
  expect(created.status).toBe(200);
  const res = await platform.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token: admin },
  );
  expect(res.status).toBe(200);
  return res.body.data as { id: number; key: string };
}

async function start(
  user: User,
  key: string,
  form: Record<string, unknown> = { reason: 'Family', days: 2 },
) {
  return platform.call('POST', '/api/v1/bpm/instances', {
    token: user.token,
    body: { definition_key: key, form },
  });
}

async function pendingTaskOf(user: User, instanceId: number) {
  const todo = await platform.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', {
    token: user.token,
  });
  return todo.body.data.list.find((t: any) => t.instance_id === instanceId);
}

describe('a flow-form instance', () => {
  it('runs from start to approved through the todo list', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const started = await start(initiator, def.key, {
      reason: 'Family',
      days: 2,
      amount: '12.34',
      kind: 'annual',
    });
    expect(started.status).toBe(200);
    const instance = started.body.data;
    expect(instance).toMatchObject({
      status: 'running',
      definition_key: def.key,
      initiator_id: initiator.id,
      round: 1,
    });
    expect(instance.biz_type).toBe(`flow:${def.key}`);
    expect(instance.form.amount).toBe(1234);
    expect(instance.actions).toContain('cancel');
    const task = await pendingTaskOf(approver, instance.id);
    expect(task).toMatchObject({
      node_id: 'approve',
      status: 'pending',
      instance_title: 'Leave request',
      initiator_id: initiator.id,
    });
    const detail = await platform.call('GET', `/api/v1/bpm/tasks/${task.id}`, {
      token: approver.token,
    });
    expect(detail.body.data.actions).toEqual(
      expect.arrayContaining(['approve', 'reject', 'transfer', 'delegate']),
    );
    const approved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: approver.token,
      body: { comment: 'ok' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data.instance.status).toBe('approved');
    expect(approved.body.data.instance.finished_at).not.toBeNull();
    const done = await platform.call('GET', '/api/v1/bpm/tasks/done', { token: approver.token });
    expect(done.body.data.list.map((t: any) => t.id)).toContain(task.id);
    const timeline = await platform.call('GET', `/api/v1/bpm/instances/${instance.id}/timeline`, {
      token: initiator.token,
    });
    const actions = timeline.body.data.map((e: any) => e.action);
    expect(actions[0]).toBe('start');
    expect(actions).toContain('approve');
    expect(timeline.body.data.find((e: any) => e.action === 'approve')).toMatchObject({
      operator_id: approver.id,
      operator_name: approver.username,
      comment: 'ok',
    });
    const mine = await platform.call('GET', '/api/v1/bpm/instances/my?status=approved', {
      token: initiator.token,
    });
    expect(mine.body.data.list.map((i: any) => i.id)).toContain(instance.id);
  });

  it('validates the form against the schema, every field at once (40002)', async () => {
    const user = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]));
    const res = await start(user, def.key, {
      days: 99,
      kind: 'weekend',
      amount: '1.234',
      extra: 'dropped',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40002);
    const fields = res.body.data.fields.map((f: any) => `${f.field}:${f.rule}`).sort();
    expect(fields).toEqual(['amount:format', 'days:range', 'kind:option', 'reason:required']);
  });

  it('refuses to start a business-form definition through the user endpoint (40900)', async () => {
    const user = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]), {
      form_mode: 'business',
      biz_type: uniq('contract').toLowerCase(),
    });
    const res = await start(user, def.key);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(40900);
  });

  it('requires a comment to reject (40003) and ends rejected', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const instance = (await start(initiator, def.key)).body.data;
    const task = await pendingTaskOf(approver, instance.id);
    const bare = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/reject`, {
      token: approver.token,
      body: {},
    });
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe(40003);
    const res = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/reject`, {
      token: approver.token,
      body: { comment: 'no' },
    });
    expect(res.body.data.instance.status).toBe('rejected');
  });

  it('lets only the assignee act (40301) and hides the instance from strangers (404)', async () => {
    const [initiator, approver, stranger] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const instance = (await start(initiator, def.key)).body.data;
    const task = await pendingTaskOf(approver, instance.id);
    const byInitiator = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: initiator.token,
      body: {},
    });
    expect(byInitiator.status).toBe(403);
    expect(byInitiator.body.code).toBe(40301);
    for (const path of [
      `/api/v1/bpm/instances/${instance.id}`,
      `/api/v1/bpm/tasks/${task.id}`,
      `/api/v1/bpm/instances/${instance.id}/timeline`,
    ]) {
      expect((await platform.call('GET', path, { token: stranger.token })).status).toBe(404);
    }
  });

  it('hides instances and tasks from another tenant (404), even from its administrator', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const instance = (await start(initiator, def.key)).body.data;
    const task = await pendingTaskOf(approver, instance.id);
    const code = uniq('t').toLowerCase();
    await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code, name: 'Other', admin_username: 'boss', admin_password: 'Other-Passw0rd!' },
    });
    const other = (await platform.login('boss', 'Other-Passw0rd!', code)).access_token;
    // With or without the instance's tenant named in the query string: it is ignored.
    for (const query of ['', '?tenant_id=1']) {
      for (const [method, path] of [
        ['GET', `/api/v1/bpm/instances/${instance.id}`],
        ['GET', `/api/v1/bpm/instances/${instance.id}/timeline`],
        ['GET', `/api/v1/bpm/tasks/${task.id}`],
        ['POST', `/api/v1/bpm/tasks/${task.id}/approve`],
        ['POST', `/api/v1/bpm/instances/${instance.id}/cancel`],
      ] as const) {
        const res = await platform.call(method, `${path}${query}`, {
          token: other,
          body: method === 'POST' ? {} : undefined,
        });
        expect([method, path, query, res.status]).toEqual([method, path, query, 404]);
      }
      const todo = await platform.call('GET', `/api/v1/bpm/tasks/todo${query}`, { token: other });
      expect(todo.body.data.total).toBe(0);
      const definitions = await platform.call('GET', `/api/v1/bpm/definitions${query}`, {
        token: other,
      });
      expect(definitions.body.data.list.map((d: { id: number }) => d.id)).not.toContain(def.id);
    }
  });

  /** Two approvers of one node, both approving while the instance's row is locked. */
  async function approveAtOnce(mode: 'or' | 'and') {
    const [initiator, a, b] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([a.id, b.id], mode));
    const instance = (await start(initiator, def.key)).body.data;
    const [ta, tb] = [await pendingTaskOf(a, instance.id), await pendingTaskOf(b, instance.id)];
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT id FROM bpm_instances WHERE id = $1 FOR UPDATE',
      [instance.id],
      () =>
        Promise.all([
          platform.call('POST', `/api/v1/bpm/tasks/${ta.id}/approve`, { token: a.token, body: {} }),
          platform.call('POST', `/api/v1/bpm/tasks/${tb.id}/approve`, { token: b.token, body: {} }),
        ]),
      2,
    );
    return { initiator, a, b, instance, ta, tb, results };
  }

  raceIt('completes an OR node once when two approvers approve at the same instant', async () => {
    const { initiator, a, b, instance, ta, tb, results } = await approveAtOnce('or');
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const timeline = await platform.call('GET', `/api/v1/bpm/instances/${instance.id}/timeline`, {
      token: initiator.token,
    });
    expect(timeline.body.data.filter((e: any) => e.action === 'approve')).toHaveLength(1);
    expect(timeline.body.data.filter((e: any) => e.action === 'finish')).toHaveLength(1);
    // The transition wrote its outbox row once: the initiator's "finished" notice, beside the
    // approvers' "todo" notice the start wrote.
    const outbox = await sql<{ kind: string; target: string; user_ids: number[] }>`
      SELECT kind, target, payload->'user_ids' AS user_ids FROM bpm_outbox
      WHERE (payload->>'instance_id')::bigint = ${instance.id} ORDER BY id`.execute(db());
    expect(outbox.rows).toEqual([
      { kind: 'inbox', target: 'todo', user_ids: [a.id, b.id] },
      { kind: 'inbox', target: 'terminal', user_ids: [initiator.id] },
    ]);
    // And as many business-audit rows as one approval writes: none. API.md keeps approvals in
    // the timeline; the business audit records administrative changes (a reassign, a resume).
    const audited = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_business_logs
      WHERE (target_type = 'instance' AND target_id = ${String(instance.id)})
         OR (target_type = 'task' AND target_id IN (${String(ta.id)}, ${String(tb.id)}))`.execute(
      db(),
    );
    expect(audited.rows[0]!.n).toBe(0);
  });

  raceIt('completes an AND node when its two approvers approve at the same instant', async () => {
    // The second approval waits for the first one's row lock, then must see the first one's
    // task done: reading the tasks from before the wait would leave the node open for good.
    const { initiator, instance, results } = await approveAtOnce('and');
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const detail = await platform.call('GET', `/api/v1/bpm/instances/${instance.id}`, {
      token: initiator.token,
    });
    expect(detail.body.data.status).toBe('approved');
    const timeline = await platform.call('GET', `/api/v1/bpm/instances/${instance.id}/timeline`, {
      token: initiator.token,
    });
    expect(timeline.body.data.filter((e: any) => e.action === 'approve')).toHaveLength(2);
    expect(timeline.body.data.filter((e: any) => e.action === 'finish')).toHaveLength(1);
  });

  it('lets the initiator cancel only before the first approval acts', async () => {
    const [initiator, a, b] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([a.id, b.id], 'and'));
    const first = (await start(initiator, def.key)).body.data;
    const canceled = await platform.call('POST', `/api/v1/bpm/instances/${first.id}/cancel`, {
      token: initiator.token,
      body: {},
    });
    expect(canceled.body.data.status).toBe('canceled');
    const second = (await start(initiator, def.key)).body.data;
    const task = await pendingTaskOf(a, second.id);
    await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: a.token,
      body: {},
    });
    const late = await platform.call('POST', `/api/v1/bpm/instances/${second.id}/cancel`, {
      token: initiator.token,
      body: {},
    });
    expect(late.status).toBe(409);
  });

  it('names the initiator in every instance detail, read from the directory on each read', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const started = await start(initiator, def.key);
    expect(started.body.data.initiator_name).toBe(initiator.username);
    const id = started.body.data.id as number;
    // The approver's detail, the task detail's instance and an action's answer name them too.
    const detail = await platform.call('GET', `/api/v1/bpm/instances/${id}`, {
      token: approver.token,
    });
    expect(detail.body.data).toMatchObject({
      initiator_id: initiator.id,
      initiator_name: initiator.username,
    });
    const task = await pendingTaskOf(approver, id);
    const taskDetail = await platform.call('GET', `/api/v1/bpm/tasks/${task.id}`, {
      token: approver.token,
    });
    expect(taskDetail.body.data.instance.initiator_name).toBe(initiator.username);
    const canceled = await platform.call('POST', `/api/v1/bpm/instances/${id}/cancel`, {
      token: initiator.token,
      body: {},
    });
    expect(canceled.body.data).toMatchObject({
      status: 'canceled',
      initiator_name: initiator.username,
    });
    // Not a copy taken at start: once the user is gone the name is null.
    const removed = await platform.call('DELETE', `/api/v1/users/${initiator.id}`, {
      token: admin,
    });
    expect(removed.status).toBe(200);
    const after = await platform.call('GET', `/api/v1/bpm/instances/${id}`, { token: admin });
    expect(after.status).toBe(200);
    expect(after.body.data.initiator_name).toBeNull();
  });

  it('suspends on an empty assignee with a machine-readable reason; an admin resumes it', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    await platform.call('PUT', `/api/v1/users/${approver.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    const instance = (await start(initiator, def.key)).body.data;
    expect(instance.status).toBe('suspended');
    expect(instance.suspend_reason).toMatchObject({ code: 'empty_assignee', node_id: 'approve' });
    const listed = await platform.call(
      'GET',
      '/api/v1/bpm/instances?status=suspended&page_size=100',
      { token: admin },
    );
    expect(listed.body.data.list.find((i: any) => i.id === instance.id).suspend_reason.code).toBe(
      'empty_assignee',
    );
    const notAdmin = await platform.call('POST', `/api/v1/bpm/instances/${instance.id}/resume`, {
      token: initiator.token,
      body: {},
    });
    expect(notAdmin.status).toBe(403);
    await platform.call('PUT', `/api/v1/users/${approver.id}`, {
      token: admin,
      body: { status: 'active' },
    });
    const resumed = await platform.call('POST', `/api/v1/bpm/instances/${instance.id}/resume`, {
      token: admin,
      body: { comment: 'approver back' },
    });
    expect(resumed.body.data.status).toBe('running');
    // Disabling the approver ended their sessions; re-enabled, they sign in again.
    const { access_token: token } = await platform.login(approver.username, approver.password);
    expect(await pendingTaskOf({ ...approver, token }, instance.id)).toBeDefined();
  });

  it('lets a platform admin terminate a running instance', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]));
    const instance = (await start(initiator, def.key)).body.data;
    const res = await platform.call('POST', `/api/v1/bpm/instances/${instance.id}/terminate`, {
      token: admin,
      body: {},
    });
    expect(res.body.data.status).toBe('terminated');
    const notAdmin = await platform.call('GET', '/api/v1/bpm/instances', {
      token: initiator.token,
    });
    expect(notAdmin.status).toBe(403);
  });

  it('removes hidden fields for the node actors, not for the initiator', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const tree = singleApproval([approver.id]) as any;
    tree.child.hiddenFields = ['amount'];
    const def = await publish(tree);
    const instance = (await start(initiator, def.key, { reason: 'r', days: 1, amount: 100 })).body
      .data;
    expect(instance.form.amount).toBe(10000);
    const task = await pendingTaskOf(approver, instance.id);
    const seen = await platform.call('GET', `/api/v1/bpm/tasks/${task.id}`, {
      token: approver.token,
    });
    expect(seen.body.data.instance.form).not.toHaveProperty('amount');
    const diagram = await platform.call('GET', `/api/v1/bpm/instances/${instance.id}/diagram`, {
      token: approver.token,
    });
    expect(diagram.body.data.form).not.toHaveProperty('amount');
    expect(diagram.body.data.tree.child.state).toBe('active');
  });

  it('records CC copies, marks them read idempotently', async () => {
    const [initiator, watcher] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish({
      id: 'start',
      type: 'start',
      name: 'Submit',
      child: {
        id: 'copy',
        type: 'cc',
        name: 'Copy',
        assignee: { type: 'users', userIds: [watcher.id] },
        child: null,
      },
    });
    const instance = (await start(initiator, def.key)).body.data;
    expect(instance.status).toBe('approved');
    const unread = await platform.call('GET', '/api/v1/bpm/cc/my?unread=true', {
      token: watcher.token,
    });
    const record = unread.body.data.list.find((c: any) => c.instance_id === instance.id);
    expect(record).toMatchObject({ read: false, node_id: 'copy' });
    const first = await platform.call('POST', `/api/v1/bpm/cc/${record.id}/read`, {
      token: watcher.token,
    });
    const second = await platform.call('POST', `/api/v1/bpm/cc/${record.id}/read`, {
      token: watcher.token,
    });
    expect(first.body.data.read).toBe(true);
    expect(second.body.data.read_at).toBe(first.body.data.read_at);
    const after = await platform.call('GET', '/api/v1/bpm/cc/my?unread=true', {
      token: watcher.token,
    });
    expect(after.body.data.list.find((c: any) => c.id === record.id)).toBeUndefined();
  });

  it('explains the route of a dry run and why a task is mine', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const sim = await platform.call('POST', `/api/v1/bpm/definitions/${def.id}/simulate`, {
      token: admin,
      body: { form: { reason: 'x', days: 1 }, initiator_id: initiator.id },
    });
    expect(sim.status).toBe(200);
    expect(sim.body.data.path).toEqual(['start', 'approve']);
    expect(sim.body.data.nodes[0]).toMatchObject({ node_id: 'approve', assignees: [approver.id] });
    const count = await platform.call('GET', '/api/v1/bpm/instances/my', {
      token: initiator.token,
    });
    expect(count.body.data.total).toBe(0);
    const instance = (await start(initiator, def.key)).body.data;
    const task = await pendingTaskOf(approver, instance.id);
    const why = await platform.call('GET', `/api/v1/bpm/tasks/${task.id}/explain`, {
      token: approver.token,
    });
    expect(why.status).toBe(200);
    expect(JSON.stringify(why.body.data)).toContain(String(approver.id));
  });
});
