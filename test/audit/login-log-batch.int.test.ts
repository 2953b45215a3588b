import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadMessage } from '../../src/platform/stream/stream.js';
import {
  loginLogBatchWriter,
  loginLogHandlers,
} from '../../src/services/audit/login-logs/login-logs.consumer.js';
import { GeoLocator } from '../../src/services/audit/login-logs/login-logs.enrich.js';
import type {
  LoginLogDb,
  LoginLogTables,
} from '../../src/services/audit/login-logs/login-logs.repo.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
let db: LoginLogDb;
let geo: GeoLocator;
beforeAll(async () => {
  platform = await startTestPlatform();
  db = platform.kernel.database.db.withTables<LoginLogTables>();
  geo = new GeoLocator({ cache: platform.kernel.cache });
});
afterAll(() => platform?.close());

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';

function event(userId: number, deviceId: string | null, success = true) {
  return {
    event: success ? 'auth.login.success' : 'auth.login.failed',
    event_id: randomUUID(),
    tenant_id: 1,
    user_id: userId,
    username: `u${userId}`,
    login_type: 'password',
    success,
    reason: success ? null : 'wrong_password',
    ip: '10.1.2.3',
    user_agent: FIREFOX,
    device_id: deviceId,
    request_id: 'r',
    occurred_at: new Date().toISOString(),
  };
}

async function logsOf(eventIds: string[]) {
  const rows = await db
    .selectFrom('audit_login_logs')
    .select(['event_id', 'new_device', 'location', 'browser', 'device_id', 'success'])
    .where('event_id', 'in', eventIds)
    .execute();
  return eventIds.map((id) => rows.filter((r) => r.event_id === id));
}

describe('the batched login-log writer', () => {
  it('marks only the first event of a new device in one batch as new, in stream order', async () => {
    const user = randomInt(1e6, 1e9);
    const known = event(user, 'known-device');
    await loginLogBatchWriter(db, geo)([known]);
    const batch = [
      event(user, 'fresh', false), // failed first: new, but does not make it known
      event(user, 'fresh'), // first success: still new, now known
      event(user, 'fresh'), // same device again in the batch: not new
      event(user, 'fresh', false),
      event(user, 'known-device'), // known before the batch
      event(user, null), // no device id: never new
    ];
    expect(await loginLogBatchWriter(db, geo)(batch)).toBe(6);
    const logs = await logsOf(batch.map((e) => e.event_id));
    expect(logs.map((rows) => rows.length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(logs.map((rows) => rows[0]!.new_device)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(logs[0]![0]).toMatchObject({ location: 'intranet', browser: 'Firefox 121' });
  });

  it('stores an event holding NUL characters, which PostgreSQL text cannot hold', async () => {
    const withNul = { ...event(randomInt(1e6, 1e9), 'nul\u0000device'), user_agent: 'a\u0000b' };
    expect(await loginLogBatchWriter(db, geo)([withNul, event(randomInt(1e6, 1e9), null)])).toBe(2);
    const [rows] = await logsOf([withNul.event_id]);
    expect(rows![0]!.device_id).toBe('nul\uFFFDdevice');
  });

  it('stores each event id once: duplicates in a batch and events stored before', async () => {
    const user = randomInt(1e6, 1e9);
    const first = event(user, 'd1');
    await loginLogBatchWriter(db, geo)([first]);
    const again = event(user, 'd2');
    expect(await loginLogBatchWriter(db, geo)([first, again, again])).toBe(1);
    const logs = await logsOf([first.event_id, again.event_id]);
    expect(logs.map((rows) => rows.length)).toEqual([1, 1]);
    expect(logs.map((rows) => rows[0]!.new_device)).toEqual([true, true]);
  });

  it('stores nothing of a batch with an event that does not match the schema', async () => {
    const good = event(randomInt(1e6, 1e9), 'd');
    await expect(
      loginLogBatchWriter(db, geo)([good, { event_id: randomUUID(), success: 'yes' }]),
    ).rejects.toThrow();
    expect((await logsOf([good.event_id]))[0]).toHaveLength(0);
  });
});

describe(`the login-log handlers on the stream (${process.env.NATS_URL ? 'JetStream' : 'table stream'})`, () => {
  it('stores the good events of a batch holding a bad one, and records the bad one as dead', async () => {
    const subject = `auth.test.${uniq('logbatch')}`;
    const durable = uniq('logbatch');
    const user = randomInt(1e6, 1e9);
    const payloads: object[] = [
      event(user, 'phone'),
      event(user, 'phone'),
      { event_id: 'not-a-login-event', success: 'maybe' },
      event(user, 'laptop'),
    ];
    const ids = payloads.map(() => randomUUID());
    for (const [i, payload] of payloads.entries()) {
      await platform.kernel.stream.publish(subject, payload, ids[i]!);
    }
    const { handler, handleBatch } = loginLogHandlers(db, geo);
    const dead: DeadMessage[] = [];
    let batches = 0;
    const consumer = platform.kernel.stream.consume(durable, [subject], handler, {
      ackWaitMs: 2000,
      backoffMs: 50,
      pollIntervalMs: 50,
      batchSize: 50,
      onDead: (d) => void dead.push(d),
      handleBatch: async (deliveries) => {
        batches++;
        await handleBatch(deliveries);
      },
    });
    try {
      const deadline = Date.now() + 15_000;
      while (dead.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(dead).toHaveLength(1);
      expect(dead[0]).toMatchObject({ msgId: ids[2], deliveryCount: 5 });
      expect(batches).toBeGreaterThanOrEqual(1);
      const good = [0, 1, 3].map((i) => (payloads[i] as { event_id: string }).event_id);
      const logs = await logsOf(good);
      expect(logs.map((rows) => rows.length)).toEqual([1, 1, 1]);
      expect(logs.map((rows) => rows[0]!.new_device)).toEqual([true, false, true]);
      expect(consumer.stats).toMatchObject({ acked: 3, dead: 1 });
    } finally {
      await consumer.stop();
    }
  });
});
