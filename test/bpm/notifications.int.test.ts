import { createServer, type IncomingMessage } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/logger.js';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { TimeoutScanner } from '../../src/services/bpm/jobs/timeout.scanner.js';
import { InstanceRunner } from '../../src/services/bpm/runtime/runner.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, singleApproval, testDirectoryOf } from './fixtures.js';

const NOTIFY_TOKEN = 'notify-Hq5-7wE3-token';
const received: Array<{ headers: IncomingMessage['headers']; body: any }> = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: JSON.parse(body) });
    res.end();
  });
});
let platform: TestPlatform;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  platform = await startTestPlatform({
    NOTIFY_API_BASE: `http://127.0.0.1:${port}/notify`,
    NOTIFY_API_TOKEN: NOTIFY_TOKEN,
    BPM_OUTBOX_POLL_INTERVAL: '100ms',
  });
});
afterAll(async () => {
  await platform?.close();
  await new Promise((r) => server.close(r));
});

describe('notifications', () => {
  it('send the todo notice to NOTIFY_API_BASE with its token, through the outbox', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const admin = await platform.adminToken();
    const created = await createDefinition(platform, admin, {
      node_tree: singleApproval([approver.id]),
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: initiator.token,
      body: { definition_key: created.body.data.key, form: { reason: 'r', days: 1 } },
    });
    const instanceId = started.body.data.id;
    const deadline = Date.now() + 10_000;
    let todo;
    while (
      !(todo = received.find((r) => r.body.instance_id === instanceId && r.body.kind === 'todo')) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(todo).toBeDefined();
    expect(todo!.headers.authorization).toBe(`Bearer ${NOTIFY_TOKEN}`);
    expect(todo!.headers['idempotency-key']).toBe(todo!.body.event_id);
    expect(todo!.body).toMatchObject({ user_ids: [approver.id], title: 'Approval needed' });
    expect(todo!.body.body).toContain('Leave request');
  });
});

describe('a remind timeout', () => {
  it('sends its notification exactly once, however often the scanner runs', async () => {
    const [initiator, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const admin = await platform.adminToken();
    const tree = singleApproval([approver.id]) as any;
    // Far off, so only this test makes it due; then it scans as often as it likes.
    tree.child.timeout = { hours: 100, action: 'remind' };
    const created = await createDefinition(platform, admin, { node_tree: tree });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: initiator.token,
      body: { definition_key: created.body.data.key, form: { reason: 'r', days: 1 } },
    });
    const instanceId = started.body.data.id;
    const db = platform.kernel.database.db.withTables<BpmTables>();
    await db
      .updateTable('bpm_tasks')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('instance_id', '=', instanceId)
      .execute();
    const runner = new InstanceRunner({
      db,
      directoryOf: testDirectoryOf(db),
      notify: { enabled: true },
    });
    const scanner = new TimeoutScanner({ db, runner, logger: createLogger('silent') });
    for (let i = 0; i < 3; i++) await scanner.runOnce();
    const rows = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bpm_outbox
      WHERE kind = 'notification' AND target = 'timeout'
        AND (payload::jsonb ->> 'instance_id')::bigint = ${instanceId}`.execute(db);
    expect(rows.rows[0]!.n).toBe(1);
    const deadline = Date.now() + 10_000;
    const timeouts = () =>
      received.filter((r) => r.body.instance_id === instanceId && r.body.kind === 'timeout');
    while (timeouts().length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(timeouts()).toHaveLength(1);
    expect(timeouts()[0]!.body).toMatchObject({
      user_ids: [approver.id],
      title: 'Approval overdue',
    });
  });
});

describe('without NOTIFY_API_BASE and a token', () => {
  it('skips notifications silently: no outbox rows, the flow goes on', async () => {
    const quiet = await startTestPlatform({ NOTIFY_API_BASE: 'http://127.0.0.1:9/notify' });
    try {
      const admin = await quiet.adminToken();
      // The admin starts it and is its approver: self-approval allowed on purpose.
      const tree = { ...singleApproval([1]) } as any;
      tree.child = { ...tree.child, allowInitiator: true };
      const created = await createDefinition(quiet, admin, { node_tree: tree });
      await quiet.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
        token: admin,
      });
      const started = await quiet.call('POST', '/api/v1/bpm/instances', {
        token: admin,
        body: { definition_key: created.body.data.key, form: { reason: 'r', days: 1 } },
      });
      expect(started.body.data.status).toBe('running');
      const rows = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM bpm_outbox WHERE kind = 'notification'`.execute(
        quiet.kernel.database.db,
      );
      expect(rows.rows[0]!.n).toBe(0);
    } finally {
      await quiet.close();
    }
  });
});
