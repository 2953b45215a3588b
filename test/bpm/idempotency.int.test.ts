import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { requestHash } from '../../src/services/bpm/idempotency/idempotency-key.js';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { realServers } from '../helpers/real-servers.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, singleApproval } from './fixtures.js';

const INTERNAL_TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ BPM_INTERNAL_TOKEN: INTERNAL_TOKEN });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

type User = Awaited<ReturnType<typeof createUserWith>>;
const db = () => platform.kernel.database.db.withTables<BpmTables>();
const FORM = { reason: 'Family', days: 2 };

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

function start(user: User, key: string, idempotencyKey?: string, form: unknown = FORM) {
  return platform.call('POST', '/api/v1/bpm/instances', {
    token: user.token,
    body: { definition_key: key, form },
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
}

function approve(user: User, taskId: number, idempotencyKey?: string, body: unknown = {}) {
  return platform.call('POST', `/api/v1/bpm/tasks/${taskId}/approve`, {
    token: user.token,
    body,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
}

async function pendingTaskOf(user: User, instanceId: number) {
  const todo = await platform.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', {
    token: user.token,
  });
  return todo.body.data.list.find((t: any) => t.instance_id === instanceId) as { id: number };
}

async function actionsOf(user: User, instanceId: number, action: string) {
  const timeline = await platform.call('GET', `/api/v1/bpm/instances/${instanceId}/timeline`, {
    token: user.token,
  });
  return timeline.body.data.filter((e: any) => e.action === action);
}

/** An initiator, an approver and one running instance waiting on the approver. */
async function runningInstance() {
  const [initiator, approver] = [
    await createUserWith(platform, []),
    await createUserWith(platform, []),
  ];
  const def = await publish(singleApproval([approver.id]));
  const instance = (await start(initiator, def.key)).body.data as { id: number };
  const task = await pendingTaskOf(approver, instance.id);
  return { initiator, approver, def, instance, task };
}

describe('Idempotency-Key', () => {
  it('replays an approve with the same key: the same answer, and one approval', async () => {
    const { initiator, approver, instance, task } = await runningInstance();
    const key = uniq('approve');
    const first = await approve(approver, task.id, key, { comment: 'ok' });
    expect(first.status).toBe(200);
    expect(first.body.data.instance.status).toBe('approved');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await approve(approver, task.id, key, { comment: 'ok' });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await actionsOf(initiator, instance.id, 'approve')).toHaveLength(1);
    // Without the key the same approve is a new request, refused by the state.
    expect((await approve(approver, task.id, undefined, { comment: 'ok' })).status).toBe(409);
  });

  it('replays a start: one instance, whatever the order of the body keys', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]));
    const key = uniq('start');
    const first = await start(initiator, def.key, key, { reason: 'Family', days: 2 });
    const again = await start(initiator, def.key, key, { days: 2, reason: 'Family' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const mine = await platform.call('GET', '/api/v1/bpm/instances/my', {
      token: initiator.token,
    });
    expect(mine.body.data.total).toBe(1);
  });

  it('answers 409 (40900) to the same key with another body or on another route', async () => {
    const { initiator, approver, def, task } = await runningInstance();
    const key = uniq('reuse');
    expect((await start(initiator, def.key, key)).status).toBe(200);
    const otherBody = await start(initiator, def.key, key, { reason: 'Other', days: 3 });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body).toMatchObject({ code: 40900, data: { idempotency_key: key } });
    expect(otherBody.body.message).toMatch(/different request/);
    const approveKey = uniq('approve');
    expect((await approve(approver, task.id, approveKey, { comment: 'a' })).status).toBe(200);
    const otherComment = await approve(approver, task.id, approveKey, { comment: 'b' });
    expect(otherComment.status).toBe(409);
    expect(otherComment.body.data).toEqual({ idempotency_key: approveKey });
    const mine = await platform.call('GET', '/api/v1/bpm/instances/my', {
      token: initiator.token,
    });
    expect(mine.body.data.total).toBe(2);
  });

  it('keeps the keys of different users apart', async () => {
    const [a, b] = [await createUserWith(platform, []), await createUserWith(platform, [])];
    const def = await publish(singleApproval([1]));
    const key = uniq('shared');
    const first = await start(a, def.key, key);
    const second = await start(b, def.key, key, { reason: 'Mine', days: 1 });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.initiator_id).toBe(b.id);
  });

  it.each([
    ['too long', 'k'.repeat(129)],
    ['a space', 'two words'],
    ['a slash', 'a/b'],
    ['a list', 'a,b'],
  ])('refuses a key that is %s with 400 (40000) and does not act', async (_what, key) => {
    const { initiator, approver, instance, task } = await runningInstance();
    const res = await approve(approver, task.id, key, {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
    expect(res.body.data.fields[0].field).toBe('Idempotency-Key');
    expect(await actionsOf(initiator, instance.id, 'approve')).toHaveLength(0);
  });

  it('stores a 4xx answer and replays it without acting', async () => {
    const { initiator, approver, instance, task } = await runningInstance();
    const key = uniq('reject');
    const first = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/reject`, {
      token: approver.token,
      body: {},
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(400);
    expect(first.body.code).toBe(40003);
    const again = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/reject`, {
      token: approver.token,
      body: {},
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(400);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await actionsOf(initiator, instance.id, 'reject')).toHaveLength(0);
  });

  raceIt('runs two concurrent identical requests once; both get the one answer', async () => {
    const { initiator, approver, instance, task } = await runningInstance();
    const key = uniq('race');
    // The instance row lock holds whichever request reserved the key inside its action; the
    // other finds the key pending and waits for its answer.
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT id FROM bpm_instances WHERE id = $1 FOR UPDATE',
      [instance.id],
      () =>
        Promise.all([
          approve(approver, task.id, key, { comment: 'once' }),
          approve(approver, task.id, key, { comment: 'once' }),
        ]),
      1,
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results[1]!.text).toBe(results[0]!.text);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(await actionsOf(initiator, instance.id, 'approve')).toHaveLength(1);
  });

  it('takes over, within seconds, a key whose request died before changing anything', async () => {
    const { initiator, approver, instance, task } = await runningInstance();
    const key = uniq('died');
    const path = `/api/v1/bpm/tasks/${task.id}/approve`;
    // A request that reserved the key, then its process died before its transaction committed.
    await db()
      .insertInto('bpm_idempotency')
      .values({
        tenant_id: 1,
        user_id: approver.id,
        key,
        request_hash: requestHash('POST', path, {}),
        status_code: 0,
        response: 'null',
      })
      .execute();
    const started = Date.now();
    const retried = await approve(approver, task.id, key, {});
    expect(retried.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(7000);
    expect(await actionsOf(initiator, instance.id, 'approve')).toHaveLength(1);
  });

  it('records the key in the change’s transaction: a retry after a crash before the answer gets the original answer', async () => {
    const { initiator, approver, instance, task } = await runningInstance();
    const key = uniq('crashed');
    const original = await approve(approver, task.id, key, { comment: 'done' });
    expect(original.status).toBe(200);
    // The key row as the approval's own transaction left it: committed, answer not yet stored
    // (the process died before storing it).
    const row = await db()
      .selectFrom('bpm_idempotency')
      .select(['status_code'])
      .where('user_id', '=', approver.id)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row.status_code).toBe(200);
    await sql`UPDATE bpm_idempotency SET status_code = 1, response = 'null'
              WHERE user_id = ${approver.id} AND key = ${key}`.execute(db());
    const retried = await approve(approver, task.id, key, { comment: 'done' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.data).toEqual(original.body.data);
    // Never run twice; and the rebuilt answer is what later retries replay, byte for byte.
    expect(await actionsOf(initiator, instance.id, 'approve')).toHaveLength(1);
    const again = await approve(approver, task.id, key, { comment: 'done' });
    expect(again.text).toBe(retried.text);
  });

  it.runIf(realServers.database)(
    'writes the key in the action’s own transaction (the key row is locked while it runs)',
    async () => {
      const { approver, instance, task } = await runningInstance();
      const key = uniq('in-trx');
      const url = platform.settings.database.url!;
      const [holder, probe] = [new pg.Client(url), new pg.Client(url)];
      await Promise.all([holder.connect(), probe.connect()]);
      try {
        // Hold the instance: the approval's transaction stops at its row lock, after the fence.
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM bpm_instances WHERE id = $1 FOR UPDATE', [instance.id]);
        const approving = approve(approver, task.id, key, {});
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { rows } = await probe.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          if (Number(rows[0]!.n) >= 1 || Date.now() > deadline) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        // The key row is held by the approval's uncommitted transaction.
        const locked = await probe
          .query(
            'SELECT 1 FROM bpm_idempotency WHERE user_id = $1 AND key = $2 FOR UPDATE NOWAIT',
            [approver.id, key],
          )
          .then(
            () => 'free',
            (err: { code?: string }) => err.code,
          );
        expect(locked).toBe('55P03');
        await holder.query('COMMIT');
        expect((await approving).status).toBe(200);
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await Promise.all([holder.end(), probe.end()]);
      }
    },
  );

  it('refuses the change of a request whose key a retry took over (the fence)', async () => {
    const { IdempotencyService } =
      await import('../../src/services/bpm/idempotency/idempotency.service.js');
    const service = new IdempotencyService({ db: db() });
    const ref = { tenantId: 1, userId: 999_999, key: uniq('fence') };
    const outcome = await service.begin(ref, 'hash');
    if (outcome.kind !== 'run') throw new Error('expected to run');
    // A retry took the key over: the row now belongs to another reservation.
    await sql`UPDATE bpm_idempotency SET created_at = created_at + interval '1 second'
              WHERE user_id = ${ref.userId} AND key = ${ref.key}`.execute(db());
    await expect(
      service.run(outcome.reservation, () =>
        db()
          .transaction()
          .execute((trx) => service.fence(trx)),
      ),
    ).rejects.toMatchObject({ code: 40900 });
    // Its own reservation still holds: the fence passes and marks it committed.
    const fresh = { ...ref, key: uniq('fence') };
    const mine = await service.begin(fresh, 'hash');
    if (mine.kind !== 'run') throw new Error('expected to run');
    await service.run(mine.reservation, () =>
      db()
        .transaction()
        .execute((trx) => service.fence(trx)),
    );
    const row = await db()
      .selectFrom('bpm_idempotency')
      .select('status_code')
      .where('user_id', '=', fresh.userId)
      .where('key', '=', fresh.key)
      .executeTakeFirstOrThrow();
    expect(row.status_code).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]));
    const key = uniq('old');
    const first = await start(initiator, def.key, key);
    expect(first.status).toBe(200);
    await sql`UPDATE bpm_idempotency SET created_at = created_at - interval '25 hours'
              WHERE user_id = ${initiator.id} AND key = ${key}`.execute(db());
    const later = await start(initiator, def.key, key, { reason: 'Next year', days: 1 });
    expect(later.status).toBe(200);
    expect(later.body.data.id).not.toBe(first.body.data.id);
    const rows = await db()
      .selectFrom('bpm_idempotency')
      .select(['key', 'status_code'])
      .where('tenant_id', '=', 1)
      .where('user_id', '=', initiator.id)
      .execute();
    expect(rows).toEqual([{ key, status_code: 200 }]);
  });

  it('replays an internal start for the same tenant instead of a duplicate-anchor 409', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await publish(singleApproval([1]), {
      form_mode: 'business',
      biz_type: uniq('contract').toLowerCase(),
    });
    const body = {
      tenant_id: 1,
      initiator_id: initiator.id,
      definition_key: def.key,
      biz_id: 'C-7',
      form: FORM,
    };
    const call = (key?: string) =>
      platform.call('POST', '/api/v1/bpm/internal/instances', {
        body,
        headers: {
          'x-internal-token': INTERNAL_TOKEN,
          ...(key ? { 'idempotency-key': key } : {}),
        },
      });
    const key = uniq('biz');
    const first = await call(key);
    expect(first.status).toBe(200);
    const again = await call(key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await call()).body.code).toBe(40901);
    const stored = await db()
      .selectFrom('bpm_idempotency')
      .select(['tenant_id', 'user_id'])
      .where('key', '=', key)
      .execute();
    expect(stored).toEqual([{ tenant_id: 1, user_id: 0 }]);
  });
});

describe('conflicting task actions', () => {
  it('answers a second approve of a done task with 409 carrying the current state', async () => {
    const { approver, instance, task } = await runningInstance();
    expect((await approve(approver, task.id)).status).toBe(200);
    const late = await approve(approver, task.id);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe(40900);
    expect(late.body.data).toEqual({
      task: { id: task.id, status: 'done', result: 'approved' },
      instance: { id: instance.id, status: 'approved' },
    });
  });

  raceIt('tells the loser of a race on an OR node which state won', async () => {
    const [initiator, a, b] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([a.id, b.id], 'or'));
    const instance = (await start(initiator, def.key)).body.data as { id: number };
    const [ta, tb] = [await pendingTaskOf(a, instance.id), await pendingTaskOf(b, instance.id)];
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'SELECT id FROM bpm_instances WHERE id = $1 FOR UPDATE',
      [instance.id],
      () => Promise.all([approve(a, ta.id), approve(b, tb.id)]),
      2,
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loserIndex = results.findIndex((r) => r.status === 409);
    const loserTask = [ta, tb][loserIndex]!;
    expect(results[loserIndex]!.body.data).toEqual({
      task: { id: loserTask.id, status: 'canceled', result: null },
      instance: { id: instance.id, status: 'approved' },
    });
  });

  it('leaves the details of other refusals as they were', async () => {
    const { approver, task } = await runningInstance();
    const res = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/transfer`, {
      token: approver.token,
      body: { to_user_id: approver.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data).toEqual({
      fields: [expect.objectContaining({ field: 'to_user_id' })],
    });
  });
});
