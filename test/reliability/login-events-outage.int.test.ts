import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/until.js';

// RELIABILITY (issue 19, item 4): with the broker unreachable, sign-ins still answer at once,
// and their login events wait in the login outbox (a success in its session's transaction)
// instead of being dropped with a warning. Readiness reports the backlog; once the broker is
// back the relay publishes them and the login log has every one.

const platforms: TestPlatform[] = [];
afterAll(() => Promise.all(platforms.map((p) => p.close())));

async function signIn(platform: TestPlatform, password: string, deviceId: string) {
  return platform.call('POST', '/api/v1/login', {
    body: { username: 'admin', password },
    headers: { 'x-device-id': deviceId },
  });
}

/** The events waiting in the outbox for these devices. */
async function waiting(platform: TestPlatform, deviceIds: string[]) {
  const rows = await sql<{ payload: { device_id: string; success: boolean } }>`
    SELECT payload FROM auth_login_outbox`.execute(platform.kernel.database.db);
  return rows.rows.map((r) => r.payload).filter((p) => deviceIds.includes(p.device_id));
}

describe('login events while the broker is unreachable', () => {
  it('keeps every event in the outbox and reports the backlog in readiness', async () => {
    const platform = await startTestPlatform({
      NATS_URL: `nats://127.0.0.1:${await freePort()}`,
      NATS_STREAM: uniq('OFFLINE'),
      BPM_OUTBOX_POLL_INTERVAL: '200ms',
    });
    platforms.push(platform);
    const devices = [uniq('ok'), uniq('bad')];
    const started = Date.now();
    expect((await signIn(platform, 'admin123', devices[0]!)).status).toBe(200);
    expect((await signIn(platform, 'wrong-password', devices[1]!)).status).toBe(401);
    expect(Date.now() - started).toBeLessThan(3000);
    // Several relay rounds later, both are still there, not dropped.
    await new Promise((r) => setTimeout(r, 1500));
    const kept = await waiting(platform, devices);
    expect(kept.map((p) => p.success).sort()).toEqual([false, true]);
    const auth = await fetch(`${platform.serviceUrls.auth}/health/ready`);
    const body = (await auth.json()) as { data: { login_relay: { waiting: number } } };
    expect(auth.status).toBe(200);
    expect(body.data.login_relay.waiting).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(!realServers.nats)('login events once the broker is back', () => {
  it('publishes what waited, and the login log has every event', async () => {
    const natsPort = await freePort();
    const platform = await startTestPlatform({
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      BPM_OUTBOX_POLL_INTERVAL: '200ms',
    });
    platforms.push(platform);
    const devices = [uniq('ok'), uniq('bad')];
    expect((await signIn(platform, 'admin123', devices[0]!)).status).toBe(200);
    expect((await signIn(platform, 'wrong-password', devices[1]!)).status).toBe(401);
    expect(await waiting(platform, devices)).toHaveLength(2);

    // The broker comes up where the platform has been trying to reach it.
    const nats = new URL(process.env.NATS_URL!);
    const proxy = await startTcpProxy(
      { host: nats.hostname, port: Number(nats.port || 4222) },
      natsPort,
    );
    try {
      const admin = await platform.adminToken();
      const logs = await until(
        'both login events in the log',
        async () => {
          const res = await platform.call('GET', '/api/v1/login-logs?page_size=100', {
            token: admin,
          });
          const mine = (res.body.data?.list ?? []).filter((l: any) =>
            devices.includes(l.device_id),
          );
          return mine.length === 2 ? mine : undefined;
        },
        20_000,
      );
      expect(logs.map((l: any) => l.success).sort()).toEqual([false, true]);
      expect(await waiting(platform, devices)).toHaveLength(0);
    } finally {
      await platform.close();
      platforms.splice(platforms.indexOf(platform), 1);
      await proxy.close();
    }
  });
});
