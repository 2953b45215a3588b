import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { businessTask, createDefinition } from '../bpm/fixtures.js';
import { until } from '../helpers/until.js';

// RELIABILITY matrix rows 7 and 12 through failpoints (FAILPOINT=name:action, refused in
// production): a failure right after the business-audit write rolls the change back with it,
// and a failure after a receiver's 2xx, before the row is marked delivered, redelivers the same
// event id (the receiver dedupes on it). The `sigkill` action needs a child process: the
// topology harness.

const INTERNAL_TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
const platforms: TestPlatform[] = [];
afterAll(() => Promise.all(platforms.map((p) => p.close())));

describe('after_audit_write:error', () => {
  it('fails the change with its audit row: nothing of it is stored', async () => {
    const platform = await startTestPlatform({ FAILPOINT: 'after_audit_write:error' });
    platforms.push(platform);
    const admin = await platform.adminToken();
    const key = uniq('audited').toLowerCase().replace(/_/g, '-');
    const created = await createDefinition(platform, admin, { key });
    expect(created.status).toBe(500);
    expect(created.body.code).toBe(50000);
    const list = await platform.call('GET', `/api/v1/bpm/definitions?page_size=100`, {
      token: admin,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((d: { key: string }) => d.key)).not.toContain(key);
  });
});

describe('after_2xx_before_mark:error', () => {
  it('redelivers the callback under the same event id until the row is settled', async () => {
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      received.push(String(req.headers['idempotency-key']));
      req.resume();
      req.on('end', () => res.end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const bizType = uniq('fp').toLowerCase();
    const platform = await startTestPlatform({
      FAILPOINT: 'after_2xx_before_mark:error',
      BPM_INTERNAL_TOKEN: INTERNAL_TOKEN,
      [`BPM_CALLBACK_${bizType.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`]: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/cb`,
      BPM_OUTBOX_POLL_INTERVAL: '100ms',
      BPM_OUTBOX_BACKOFF_BASE: '100ms',
      BPM_OUTBOX_MAX_ATTEMPTS: '3',
    });
    platforms.push(platform);
    try {
      const admin = await platform.adminToken();
      const { task } = await businessTask(platform, admin, bizType, INTERNAL_TOKEN);
      const approved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
        token: admin,
        body: {},
      });
      expect(approved.status).toBe(200);
      // Every attempt reached the receiver (2xx) and failed before the mark: three deliveries
      // of one event id, then the row is dead, never marked delivered.
      await until('three deliveries', () => received.length >= 3);
      expect(new Set(received).size).toBe(1);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
