import { createServer, type IncomingMessage, type Server } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/logger.js';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { InstanceRunner } from '../../src/services/bpm/runtime/runner.js';
import { backoffMs } from '../../src/services/bpm/jobs/outbox.worker.js';
import { TimeoutScanner } from '../../src/services/bpm/jobs/timeout.scanner.js';
import { freePort } from '../helpers/free-port.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { businessTask, createDefinition, createUserWith, testDirectoryOf } from './fixtures.js';
import { until } from '../helpers/until.js';

const TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
const CALLBACK_TOKEN = 'callback-Zr8-4tY1-token';

interface Received {
  headers: IncomingMessage['headers'];
  body: any;
}

/** A business back end: answers `statuses` in turn (then 200), recording every request. */
async function receiver(statuses: number[], port = 0) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(body) });
      res.statusCode = statuses[received.length - 1] ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const address = server.address() as { port: number };
  return {
    received,
    url: `http://127.0.0.1:${address.port}/callback`,
    port: address.port,
    close: () => new Promise((r) => server.close(r)),
  };
}

const suffix = (bizType: string) => bizType.toUpperCase().replace(/[^A-Z0-9]/g, '_');

const flaky = uniq('flaky').toLowerCase();
const late = uniq('late').toLowerCase();
const nowhere = uniq('nowhere').toLowerCase();
const hopeless = uniq('hopeless').toLowerCase();
const refusing = uniq('refusing').toLowerCase();
const rejecting = uniq('rejecting').toLowerCase();
let platform: TestPlatform;
let admin: string;
let flakyReceiver: Awaited<ReturnType<typeof receiver>>;
let hopelessReceiver: Awaited<ReturnType<typeof receiver>>;
// Receivers answering 4xx: a refusal is a failed delivery (retried, then dead), not a delivery.
let refusingReceiver: Awaited<ReturnType<typeof receiver>>;
let rejectingReceiver: Awaited<ReturnType<typeof receiver>>;
let latePort: number;
const db = () => platform.kernel.database.db.withTables<BpmTables>();

beforeAll(async () => {
  flakyReceiver = await receiver([500, 503]);
  hopelessReceiver = await receiver([500, 500, 500, 500, 500, 500]);
  refusingReceiver = await receiver([404, 409]);
  rejectingReceiver = await receiver([422, 422, 422, 422, 422, 422]);
  latePort = await freePort();
  platform = await startTestPlatform({
    BPM_INTERNAL_TOKEN: TOKEN,
    BPM_CALLBACK_TOKEN: CALLBACK_TOKEN,
    [`BPM_CALLBACK_${suffix(flaky)}`]: flakyReceiver.url,
    [`BPM_CALLBACK_${suffix(late)}`]: `http://127.0.0.1:${latePort}/callback`,
    [`BPM_CALLBACK_${suffix(hopeless)}`]: hopelessReceiver.url,
    [`BPM_CALLBACK_${suffix(refusing)}`]: refusingReceiver.url,
    [`BPM_CALLBACK_${suffix(rejecting)}`]: rejectingReceiver.url,
    BPM_OUTBOX_POLL_INTERVAL: '100ms',
    BPM_OUTBOX_BACKOFF_BASE: '100ms',
    BPM_OUTBOX_MAX_ATTEMPTS: '4',
    BPM_TIMEOUT_SCAN_INTERVAL: '200ms',
  });
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
  await flakyReceiver?.close();
  await hopelessReceiver?.close();
  await refusingReceiver?.close();
  await rejectingReceiver?.close();
});

/** Starts a business instance approved by admin and approves it: a terminal state with a callback. */
async function finishBusinessInstance(bizType: string) {
  const { instanceId, task } = await businessTask(platform, admin, bizType, TOKEN);
  await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, { token: admin, body: {} });
  return instanceId;
}

const outboxRow = (instanceId: number) =>
  db()
    .selectFrom('bpm_outbox')
    .selectAll()
    .where('kind', '=', 'callback')
    .where(sql<boolean>`(payload->>'instance_id')::bigint = ${instanceId}`)
    .executeTakeFirst();

describe('terminal-state callbacks', () => {
  it('retry a failing receiver with one Idempotency-Key until it succeeds', async () => {
    const instanceId = await finishBusinessInstance(flaky);
    const row = await until('the row delivered', async () => {
      const r = await outboxRow(instanceId);
      return r?.status === 'delivered' ? r : undefined;
    });
    expect(row.attempts).toBe(3);
    const mine = flakyReceiver.received.filter((r) => r.body.instance_id === instanceId);
    expect(mine).toHaveLength(3);
    expect(new Set(mine.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(mine[0]!.headers['idempotency-key']).toBe(row.event_id);
    expect(mine[0]!.headers['x-internal-token']).toBe(CALLBACK_TOKEN);
    expect(mine[2]!.body).toMatchObject({
      event: 'bpm.instance.finished',
      event_id: row.event_id,
      tenant_id: 1,
      instance_id: instanceId,
      biz_type: flaky,
      status: 'approved',
    });
  });

  it('deliver to a receiver that was down at first once it comes up', async () => {
    const instanceId = await finishBusinessInstance(late);
    await until('a first attempt', async () => ((await outboxRow(instanceId))?.attempts ?? 0) >= 1);
    const back = await receiver([], latePort);
    try {
      await until(
        'the row delivered',
        async () => (await outboxRow(instanceId))?.status === 'delivered',
      );
      expect(back.received.map((r) => r.body.instance_id)).toContain(instanceId);
    } finally {
      await back.close();
    }
  });

  it('keep the row for a business type with no callback configured', async () => {
    const instanceId = await finishBusinessInstance(nowhere);
    const row = await until('a retry over a second away', async () => {
      const r = await outboxRow(instanceId);
      return r && r.next_attempt_at.getTime() > Date.now() + 1000 ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('record an exhausted delivery as dead', async () => {
    const instanceId = await finishBusinessInstance(hopeless);
    const row = await until('the row dead', async () => {
      const r = await outboxRow(instanceId);
      return r?.status === 'dead' ? r : undefined;
    });
    expect(row.attempts).toBe(4);
    expect(row.last_error).toBe('HTTP 500');
  });

  it('retry a receiver that answers 4xx, with the same Idempotency-Key, until it takes it', async () => {
    const instanceId = await finishBusinessInstance(refusing);
    const row = await until('the row delivered', async () => {
      const r = await outboxRow(instanceId);
      return r?.status === 'delivered' ? r : undefined;
    });
    expect(row.attempts).toBe(3);
    const mine = refusingReceiver.received.filter((r) => r.body.instance_id === instanceId);
    expect(mine).toHaveLength(3);
    expect(new Set(mine.map((r) => r.headers['idempotency-key']))).toEqual(new Set([row.event_id]));
  });

  it('record a delivery refused with 4xx every time as dead, not delivered', async () => {
    const instanceId = await finishBusinessInstance(rejecting);
    const row = await until('the row settled', async () => {
      const r = await outboxRow(instanceId);
      return r?.status === 'dead' || r?.status === 'delivered' ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'dead', attempts: 4, last_error: 'HTTP 422' });
    expect(row.delivered_at).toBeNull();
    expect(
      rejectingReceiver.received.filter((r) => r.body.instance_id === instanceId),
    ).toHaveLength(4);
  });

  it('back off exponentially with jitter', () => {
    for (const attempt of [1, 2, 3, 4]) {
      const ceiling = 1000 * 2 ** (attempt - 1);
      expect(backoffMs(attempt, 1000, () => 0)).toBe(ceiling / 2);
      expect(backoffMs(attempt, 1000, () => 1)).toBe(ceiling);
    }
    expect(backoffMs(30, 1000, () => 1)).toBe(3_600_000);
  });
});

describe('timeout scanner', () => {
  async function instanceWithTimeout(action: 'remind' | 'auto_approve' | 'auto_reject') {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const created = await createDefinition(platform, admin, {
      node_tree: {
        id: 'start',
        type: 'start',
        name: 'Submit',
        child: {
          id: 'slow',
          type: 'approval',
          name: 'Slow',
          assignee: { type: 'users', userIds: [approver.id] },
          mode: 'or',
          timeout: { hours: 0.0001, action },
          child: null,
        },
      },
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: initiator.token,
      body: { definition_key: created.body.data.key, form: { reason: 'r', days: 1 } },
    });
    return { instanceId: started.body.data.id as number, initiator };
  }

  const timelineOf = async (instanceId: number, token: string) =>
    (await platform.call('GET', `/api/v1/bpm/instances/${instanceId}/timeline`, { token })).body
      .data as any[];

  it('auto-approves as the system when the action is auto_approve', async () => {
    const { instanceId, initiator } = await instanceWithTimeout('auto_approve');
    const detail = await until('the instance approved', async () => {
      const d = await platform.call('GET', `/api/v1/bpm/instances/${instanceId}`, {
        token: initiator.token,
      });
      return d.body.data.status === 'approved' ? d.body.data : undefined;
    });
    expect(detail.tasks[0]).toMatchObject({ status: 'done', result: 'auto_approved' });
    const entry = (await timelineOf(instanceId, initiator.token)).find(
      (e) => e.action === 'auto_approve',
    );
    expect(entry).toMatchObject({ operator_id: 0, operator_name: 'system', comment: 'timeout' });
  });

  it('auto-rejects as the system when the action is auto_reject', async () => {
    const { instanceId, initiator } = await instanceWithTimeout('auto_reject');
    const detail = await until('the instance rejected', async () => {
      const d = await platform.call('GET', `/api/v1/bpm/instances/${instanceId}`, {
        token: initiator.token,
      });
      return d.body.data.status === 'rejected' ? d.body.data : undefined;
    });
    expect(detail.tasks[0]).toMatchObject({ status: 'done', result: 'auto_rejected' });
    const entry = (await timelineOf(instanceId, initiator.token)).find(
      (e) => e.action === 'auto_reject',
    );
    expect(entry).toMatchObject({ operator_id: 0, operator_name: 'system', comment: 'timeout' });
  });

  it('reminds once and leaves the task pending', async () => {
    const { instanceId, initiator } = await instanceWithTimeout('remind');
    await until('the reminder in the timeline', async () =>
      (await timelineOf(instanceId, initiator.token)).some((e) => e.action === 'remind'),
    );
    // Scans after the reminder find nothing more to do for this task.
    const runner = new InstanceRunner({
      db: db(),
      directoryOf: testDirectoryOf(db()),
      notify: { enabled: false },
    });
    const scanner = new TimeoutScanner({ db: db(), runner, logger: createLogger('silent') });
    await scanner.runOnce();
    await scanner.runOnce();
    const timeline = await timelineOf(instanceId, initiator.token);
    expect(timeline.filter((e) => e.action === 'remind')).toHaveLength(1);
    const detail = await platform.call('GET', `/api/v1/bpm/instances/${instanceId}`, {
      token: initiator.token,
    });
    expect(detail.body.data.status).toBe('running');
  });

  it('never acts twice on one task with two scanners at once', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const created = await createDefinition(platform, admin, {
      node_tree: {
        id: 'start',
        type: 'start',
        name: 'Submit',
        // A long timeout the platform's own scanner will not reach; the test makes it due.
        child: {
          id: 'slow',
          type: 'approval',
          name: 'Slow',
          assignee: { type: 'users', userIds: [approver.id] },
          mode: 'or',
          timeout: { hours: 100, action: 'remind' },
          child: null,
        },
      },
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: initiator.token,
      body: { definition_key: created.body.data.key, form: { reason: 'r', days: 1 } },
    });
    const instanceId = started.body.data.id as number;
    const logger = createLogger('silent');
    const runner = new InstanceRunner({
      db: db(),
      directoryOf: testDirectoryOf(db()),
      notify: { enabled: false },
    });
    const scanners = [
      new TimeoutScanner({ db: db(), runner, logger }),
      new TimeoutScanner({ db: db(), runner, logger }),
    ];
    await db()
      .updateTable('bpm_tasks')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('instance_id', '=', instanceId)
      .execute();
    await Promise.all(scanners.map((s) => s.runOnce()));
    const timeline = await timelineOf(instanceId, initiator.token);
    expect(timeline.filter((e) => e.action === 'remind')).toHaveLength(1);
  });

  /** A two-step flow whose first step has a long `action` timeout; the test makes deadlines pass. */
  async function twoSteps(action: 'remind' | 'auto_reject') {
    const [initiator, first, second, other] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const step = (id: string, userId: number, extra: Record<string, unknown> = {}) => ({
      id,
      type: 'approval',
      name: id,
      assignee: { type: 'users', userIds: [userId] },
      mode: 'or',
      ...extra,
    });
    const created = await createDefinition(platform, admin, {
      node_tree: {
        id: 'start',
        type: 'start',
        name: 'Submit',
        child: {
          ...step('first', first.id, { timeout: { hours: 100, action } }),
          child: { ...step('second', second.id), child: null },
        },
      },
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: initiator.token,
      body: { definition_key: created.body.data.key, form: { reason: 'r', days: 1 } },
    });
    const instanceId = started.body.data.id as number;
    const runner = new InstanceRunner({
      db: db(),
      directoryOf: testDirectoryOf(db()),
      notify: { enabled: false },
    });
    const scanner = new TimeoutScanner({ db: db(), runner, logger: createLogger('silent') });
    const detail = async () =>
      (await platform.call('GET', `/api/v1/bpm/instances/${instanceId}`, { token: admin })).body
        .data;
    const firstTask = async () =>
      (await detail()).tasks.find((t: any) => t.node_id === 'first' && t.status === 'pending');
    /** The first step's deadline passes (as hours would). */
    const overdue = () =>
      db()
        .updateTable('bpm_tasks')
        .set({ due_at: new Date(Date.now() - 1000) })
        .where('instance_id', '=', instanceId)
        .where('node_id', '=', 'first')
        .execute();
    return { instanceId, initiator, first, other, scanner, detail, firstTask, overdue };
  }

  it('re-arms a withdrawn approval\u2019s deadline: a passed one does not auto-reject it', async () => {
    const flow = await twoSteps('auto_reject');
    const task = await flow.firstTask();
    await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: flow.first.token,
      body: {},
    });
    // While the approval stood, the step's 100 hours went by.
    await flow.overdue();
    const withdrawn = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/withdraw`, {
      token: flow.first.token,
      body: {},
    });
    expect(withdrawn.status).toBe(200);
    await flow.scanner.runOnce();
    const detail = await flow.detail();
    expect(detail.status).toBe('running');
    const reopened = detail.tasks.find((t: any) => t.id === task.id);
    expect(reopened.status).toBe('pending');
    expect(Date.parse(reopened.due_at)).toBeGreaterThan(Date.now() + 99 * 3_600_000);
  });

  it('reminds again once a reminded task is in new hands', async () => {
    const flow = await twoSteps('remind');
    await flow.overdue();
    await flow.scanner.runOnce();
    const reminders = async () =>
      (await timelineOf(flow.instanceId, flow.initiator.token)).filter((e) => e.action === 'remind')
        .length;
    expect(await reminders()).toBe(1);
    const task = await flow.firstTask();
    const moved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/transfer`, {
      token: flow.first.token,
      body: { to_user_id: flow.other.id },
    });
    expect(moved.status).toBe(200);
    await flow.scanner.runOnce();
    expect(await reminders()).toBe(2);
    // Handled for the new holder: later scans leave it be.
    await flow.scanner.runOnce();
    expect(await reminders()).toBe(2);
  });
});
