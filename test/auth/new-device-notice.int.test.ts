import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { until } from '../helpers/until.js';

const PASSWORD = 'Notice-User-Pass-6';
const TOKEN = 'notify-api-token-for-tests';

// The notification API: a real HTTP server recording what it is sent.
const received: Array<{ headers: IncomingHttpHeaders; body: Record<string, any> }> = [];
let receiver: Server;
let platform: TestPlatform;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += String(chunk)));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  platform = await startTestPlatform({
    NOTIFY_API_BASE: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notices`,
    NOTIFY_API_TOKEN: TOKEN,
    BPM_OUTBOX_POLL_INTERVAL: '100ms',
  });
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function signIn(username: string, deviceId: string) {
  const res = await platform.call('POST', '/api/v1/login', {
    body: { username, password: PASSWORD },
    headers: { 'x-device-id': deviceId },
  });
  expect(res.status).toBe(200);
}

describe('the new-device notice', () => {
  it('is sent once for the first sign-in from a device, never for a known one', async () => {
    const username = uniq('notice');
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password: PASSWORD },
    });
    expect(created.status).toBe(200);
    const userId = created.body.data.id as number;
    const mine = () => received.filter((r) => r.body.user_ids?.includes(userId));

    await signIn(username, 'device-one');
    const first = await until('the first notice', () => mine()[0]);
    expect(first.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(first.headers['idempotency-key']).toBe(first.body.event_id);
    expect(first.body).toMatchObject({
      kind: 'new_device',
      user_ids: [userId],
      device_id: 'device-one',
      ip: '127.0.0.1',
      location: 'intranet',
    });
    expect(first.body.title).toEqual(expect.any(String));
    expect(first.body.body).toContain('127.0.0.1');

    // The known device again, then a new one: by the time the new one's notice arrives, the
    // known device's sign-in (earlier in the stream) has been stored with no notice.
    await signIn(username, 'device-one');
    await signIn(username, 'device-two');
    await until('the second notice', () => mine()[1]);
    await new Promise((r) => setTimeout(r, 500));
    expect(mine().map((r) => r.body.device_id)).toEqual(['device-one', 'device-two']);

    const queued = await sql<{ count: string }>`
      SELECT count(*) AS count FROM audit_notify_outbox
      WHERE kind = 'notification' AND payload->'user_ids' @> ${JSON.stringify([userId])}::jsonb`.execute(
      platform.kernel.database.db,
    );
    expect(Number(queued.rows[0]!.count)).toBe(2);
    const logs = await platform.call('GET', `/api/v1/login-logs?username=${username}`, {
      token: await platform.adminToken(),
    });
    expect(logs.body.data.list.map((l: any) => [l.device_id, l.new_device])).toEqual([
      ['device-two', true],
      ['device-one', false],
      ['device-one', true],
    ]);
  });
});
