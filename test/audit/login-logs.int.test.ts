import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryMeta } from '../../src/platform/stream/stream.js';
import { GeoLocator } from '../../src/services/audit/login-logs/login-logs.enrich.js';
import {
  LOGIN_EVENTS,
  LOGIN_LOG_CONSUMER,
  loginLogWriter,
} from '../../src/services/audit/login-logs/login-logs.consumer.js';
import { durableName } from '../../src/platform/stream/jetstream-consumer.js';
import type { LoginLogTables } from '../../src/services/audit/login-logs/login-logs.repo.js';
import { createUser, dataOf, PASSWORD } from '../identity/identity-fixtures.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { until } from '../helpers/until.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** The login-log entry of `deviceId`, once the consumer has stored it (at most 10 s). */
async function logOf(deviceId: string, token = admin): Promise<Record<string, any>> {
  return until(`the login log of ${deviceId}`, async () => {
    const res = await platform.call('GET', '/api/v1/login-logs?page_size=100', { token });
    return dataOf(res).list.find((l: any) => l.device_id === deviceId);
  });
}

async function signIn(username: string, password: string, deviceId: string, userAgent?: string) {
  return platform.call('POST', '/api/v1/login', {
    body: { username, password },
    headers: { 'x-device-id': deviceId, ...(userAgent ? { 'user-agent': userAgent } : {}) },
  });
}

describe('login logs', () => {
  it('stores a login with the parsed user agent and "intranet" for a loopback address', async () => {
    const deviceId = uniq('device');
    const started = Date.now();
    expect((await signIn('admin', 'admin123', deviceId, CHROME_ON_WINDOWS)).status).toBe(200);
    const log = await logOf(deviceId);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(log).toMatchObject({
      tenant_id: 1,
      user_id: 1,
      username: 'admin',
      login_type: 'password',
      success: true,
      reason: null,
      ip: '127.0.0.1',
      location: 'intranet',
      device: 'Desktop',
      os: 'Windows 10',
      browser: 'Chrome 120',
      device_id: deviceId,
      new_device: true,
    });
    expect(Object.keys(log).sort()).toEqual(
      [
        'id',
        'tenant_id',
        'user_id',
        'username',
        'login_type',
        'success',
        'reason',
        'ip',
        'location',
        'device',
        'os',
        'browser',
        'device_id',
        'new_device',
        'created_at',
      ].sort(),
    );
  });

  it('marks only the first successful login from a device as new', async () => {
    const deviceId = uniq('device');
    await signIn('admin', 'admin123', deviceId);
    await logOf(deviceId);
    await signIn('admin', 'admin123', deviceId);
    const logs = await until('both sign-ins in the log', async () => {
      const res = await platform.call('GET', '/api/v1/login-logs?page_size=100', { token: admin });
      const mine = dataOf(res).list.filter((l: any) => l.device_id === deviceId);
      return mine.length === 2 ? mine : undefined;
    });
    expect(logs.map((l: any) => l.new_device)).toEqual([false, true]); // newest first
  });

  it('attributes a failed login to the requested tenant, with its reason', async () => {
    const deviceId = uniq('device');
    expect((await signIn('admin', 'not-the-password', deviceId)).status).toBe(401);
    expect(await logOf(deviceId)).toMatchObject({
      tenant_id: 1,
      username: 'admin',
      success: false,
      reason: 'wrong_password',
    });
    const filtered = dataOf(
      await platform.call('GET', '/api/v1/login-logs?success=false&username=admin', {
        token: admin,
      }),
    );
    expect(filtered.list.every((l: any) => l.success === false)).toBe(true);
    expect(filtered.list.some((l: any) => l.device_id === deviceId)).toBe(true);
  });

  it('shows a user only their own logs and the successful login before the current one', async () => {
    const user = await createUser(platform, admin);
    const first = uniq('device');
    const firstLogin = await signIn(user.username, PASSWORD, first);
    expect(firstLogin.status).toBe(200);
    // Created by the admin: the first sign-in changes the password (here, there and back).
    await platform.completePasswordChange(firstLogin.body.data.access_token, PASSWORD);
    await logOf(first);
    const second = uniq('device');
    const res = await signIn(user.username, PASSWORD, second);
    const token = res.body.data.access_token as string;
    await logOf(second);

    const mine = dataOf(await platform.call('GET', '/api/v1/login-logs/my', { token }));
    expect(mine.total).toBe(2);
    expect(mine.list.map((l: any) => l.device_id)).toEqual([second, first]);
    const last = dataOf(await platform.call('GET', '/api/v1/login-logs/last', { token }));
    expect(last).toMatchObject({ user_id: user.id, device_id: first, success: true });

    // Without system:log:login: 403 on the tenant list, stats, trend and clear.
    for (const [method, path] of [
      ['GET', '/api/v1/login-logs'],
      ['GET', '/api/v1/login-logs/stats'],
      ['GET', '/api/v1/login-logs/trend'],
      ['DELETE', '/api/v1/login-logs/clear?days=0'],
    ] as const) {
      const denied = await platform.call(method, path, { token });
      expect(denied.status, path).toBe(403);
      expect(denied.body.code).toBe(40300);
    }
  });

  it('answers stats and a 7-day UTC trend ending today', async () => {
    const deviceId = uniq('device');
    await signIn('admin', 'admin123', deviceId);
    await logOf(deviceId);
    const stats = dataOf(await platform.call('GET', '/api/v1/login-logs/stats', { token: admin }));
    expect(stats).toEqual({
      total: expect.any(Number),
      success: expect.any(Number),
      failed: expect.any(Number),
      unique_users: expect.any(Number),
      by_type: { password: stats.total },
    });
    expect(stats.success + stats.failed).toBe(stats.total);
    expect(stats.failed).toBeGreaterThanOrEqual(1);

    const trend = dataOf(await platform.call('GET', '/api/v1/login-logs/trend', { token: admin }));
    expect(trend).toHaveLength(7);
    expect(trend[6].date).toBe(new Date().toISOString().slice(0, 10));
    expect(trend[0].date).toBe(new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10));
    expect(trend[6].success).toBeGreaterThanOrEqual(1);
    expect(trend.reduce((n: number, d: any) => n + d.success + d.failed, 0)).toBe(stats.total);
  });

  it('rejects a clear without an integer days ≥ 0', async () => {
    for (const days of ['', '-1', 'abc', '1.5', '1e309', 'NaN']) {
      const res = await platform.call('DELETE', `/api/v1/login-logs/clear?days=${days}`, {
        token: admin,
      });
      expect(res.status, days).toBe(400);
      expect(res.body.code).toBe(40000);
    }
    const missing = await platform.call('DELETE', '/api/v1/login-logs/clear', { token: admin });
    expect(missing.status).toBe(400);
  });

  it('clears only the caller tenant and never shows another tenant', async () => {
    const db = platform.kernel.database.db.withTables<LoginLogTables>();
    const foreignEvent = randomUUID();
    await db
      .insertInto('audit_login_logs')
      .values({
        event_id: foreignEvent,
        tenant_id: 999_999,
        user_id: 999_999,
        username: 'foreigner',
        login_type: 'password',
        success: true,
        reason: null,
        ip: '10.0.0.1',
        location: 'intranet',
        device: null,
        os: null,
        browser: null,
        device_id: 'foreign-device',
        session_id: null,
        created_at: new Date(Date.now() - 30 * 86_400_000),
      })
      .execute();
    const listed = dataOf(
      await platform.call('GET', '/api/v1/login-logs?username=foreigner', { token: admin }),
    );
    expect(listed.total).toBe(0);

    const before = dataOf(await platform.call('GET', '/api/v1/login-logs/stats', { token: admin }));
    const cleared = dataOf(
      await platform.call('DELETE', '/api/v1/login-logs/clear?days=365', { token: admin }),
    );
    expect(cleared).toEqual({ deleted: 0 });
    const all = dataOf(
      await platform.call('DELETE', '/api/v1/login-logs/clear?days=0', { token: admin }),
    );
    expect(all.deleted).toBe(before.total);
    const left = await db
      .selectFrom('audit_login_logs')
      .select('event_id')
      .where('event_id', '=', foreignEvent)
      .execute();
    expect(left).toHaveLength(1);
  });
});

describe(`the durable consumer (${process.env.NATS_URL ? 'JetStream' : 'table stream'})`, () => {
  const fast = { ackWaitMs: 2000, backoffMs: 50, pollIntervalMs: 50 };

  it('redelivers a message whose handler failed, and the store keeps it once', async () => {
    const event = `auth.test.${uniq('redeliver')}`;
    const db = platform.kernel.database.db.withTables<LoginLogTables>();
    const write = loginLogWriter(db, new GeoLocator({ cache: platform.kernel.cache }));
    const deliveries: DeliveryMeta[] = [];
    const consumer = platform.kernel.stream.consume(
      uniq('redeliver'),
      [event],
      async (payload, meta) => {
        deliveries.push(meta);
        await write(payload);
        // Stored, then "crashed" before the ack: twice.
        if (meta.deliveryCount < 3) throw new Error('failure after the write');
      },
      fast,
    );
    try {
      const eventId = randomUUID();
      await platform.kernel.stream.publish(event, loginEvent(eventId), eventId);
      await until('the event acked', () => consumer.stats.acked === 1);
      expect(deliveries.map((d) => d.deliveryCount)).toEqual([1, 2, 3]);
      expect(deliveries.every((d) => d.msgId === eventId)).toBe(true);
      const rows = await db
        .selectFrom('audit_login_logs')
        .select('id')
        .where('event_id', '=', eventId)
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await consumer.stop();
    }
  });

  it('records a poison message as dead after the fifth delivery', async () => {
    const event = `auth.test.${uniq('poison')}`;
    const durable = uniq('poison');
    let calls = 0;
    const dead: unknown[] = [];
    const consumer = platform.kernel.stream.consume(
      durable,
      [event],
      async () => {
        calls++;
        throw new Error('cannot be stored');
      },
      { ...fast, onDead: (d) => void dead.push(d) },
    );
    try {
      const msgId = randomUUID();
      await platform.kernel.stream.publish(event, { poison: true }, msgId);
      await until('the poison event dead', () => dead.length === 1);
      expect(dead[0]).toMatchObject({
        consumer: durable,
        msgId,
        deliveryCount: 5,
        error: 'cannot be stored',
        payload: { poison: true },
      });
      expect(consumer.stats.dead).toBe(1);
      await new Promise((r) => setTimeout(r, 500));
      expect(calls).toBe(5);
      const recorded = await sql<{ deliveries: number }>`
        SELECT deliveries FROM stream_dead_letters
        WHERE consumer = ${durable} AND msg_id = ${msgId}`.execute(platform.kernel.database.db);
      expect(recorded.rows).toEqual([{ deliveries: 5 }]);
    } finally {
      await consumer.stop();
    }
  });

  it('delivers a message published while the consumer was stopped, and nothing twice', async () => {
    const event = `auth.test.${uniq('resume')}`;
    const durable = uniq('resume');
    const seen: string[] = [];
    const start = () =>
      platform.kernel.stream.consume(
        durable,
        [event],
        async (_p, m) => void seen.push(m.msgId),
        fast,
      );
    let consumer = start();
    await platform.kernel.stream.publish(event, { n: 1 }, 'm1');
    await until('the first event seen', () => seen.length === 1);
    await consumer.stop();
    await platform.kernel.stream.publish(event, { n: 2 }, 'm2');
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual(['m1']);
    consumer = start();
    try {
      await until('the second event seen', () => seen.length === 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual(['m1', 'm2']);
    } finally {
      await consumer.stop();
    }
  });
});

describe('the login-log consumer on JetStream', () => {
  it.runIf(realServers.nats)(
    'is a durable pull consumer with explicit ack and at most 5 deliveries',
    async () => {
      const { jetstreamManager } = await import('@nats-io/jetstream');
      const { connect } = await import('@nats-io/transport-node');
      const nc = await connect({ servers: platform.settings.nats.url });
      try {
        const jsm = await jetstreamManager(nc);
        for (const event of LOGIN_EVENTS) {
          const subject = platform.kernel.stream.subjectOf(event);
          const info = await jsm.consumers.info(
            platform.settings.nats.stream,
            durableName(LOGIN_LOG_CONSUMER, subject),
          );
          expect(info.config).toMatchObject({
            durable_name: durableName(LOGIN_LOG_CONSUMER, subject),
            ack_policy: 'explicit',
            max_deliver: 5,
            filter_subject: subject,
          });
        }
      } finally {
        await nc.close();
      }
    },
  );
});

function loginEvent(eventId: string) {
  return {
    event: 'auth.login.success',
    event_id: eventId,
    tenant_id: 1,
    user_id: 1,
    username: 'admin',
    login_type: 'password',
    success: true,
    reason: null,
    ip: '8.8.8.8',
    user_agent: CHROME_ON_WINDOWS,
    device_id: null,
    request_id: 'r',
    occurred_at: new Date().toISOString(),
  };
}

describe('the audit service counts dead login events', () => {
  it('in audit_login_events_dead_total, after the fifth failed delivery', async () => {
    const fastRetries = await startTestPlatform({ AUDIT_LOGIN_RETRY_BACKOFF: '20ms' });
    try {
      const deadTotal = async () => {
        const text = await (await fetch(`${fastRetries.serviceUrls.audit}/metrics`)).text();
        const line = text.split('\n').find((l) => l.startsWith('audit_login_events_dead_total'));
        return Number(line?.split(' ').at(-1) ?? NaN);
      };
      expect(await deadTotal()).toBe(0);
      // Not a login event: it fails the schema on every delivery.
      const eventId = randomUUID();
      await fastRetries.kernel.stream.publish('auth.login.failed', { event_id: 42 }, eventId);
      await until('one dead letter', async () => (await deadTotal()) === 1, 20_000);
      const recorded = await sql<{ deliveries: number }>`
        SELECT deliveries FROM stream_dead_letters
        WHERE consumer = ${LOGIN_LOG_CONSUMER} AND msg_id = ${eventId}`.execute(
        fastRetries.kernel.database.db,
      );
      expect(recorded.rows).toEqual([{ deliveries: 5 }]);
    } finally {
      await fastRetries.close();
    }
  }, 30_000);
});
