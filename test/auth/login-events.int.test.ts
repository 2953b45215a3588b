import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForEvent } from '../helpers/events.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

describe('login events', () => {
  it('publishes auth.login.success with every field the login log needs', async () => {
    const deviceId = uniq('device');
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123' },
      headers: {
        'x-device-id': deviceId,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Approva-Test/1.0',
      },
    });
    expect(res.status).toBe(200);
    const event = await waitForEvent(
      platform,
      'auth.login.success',
      (e) => e.device_id === deviceId,
    );
    expect(event).toMatchObject({
      event: 'auth.login.success',
      tenant_id: 1,
      user_id: 1,
      username: 'admin',
      login_type: 'password',
      success: true,
      reason: null,
      ip: '127.0.0.1',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Approva-Test/1.0',
      device_id: deviceId,
      request_id: res.headers.get('x-request-id'),
    });
    expect(event.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(event.occurred_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('publishes auth.login.failed with the reason, attributed to the requested tenant', async () => {
    const deviceId = uniq('device');
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'wrong-password', tenant_code: 'default' },
      headers: { 'x-device-id': deviceId },
    });
    expect(res.status).toBe(401);
    const event = await waitForEvent(
      platform,
      'auth.login.failed',
      (e) => e.device_id === deviceId,
    );
    expect(event).toMatchObject({
      success: false,
      reason: 'wrong_password',
      tenant_id: 1,
      user_id: 1,
      username: 'admin',
    });
  });

  it('does not put the password in the event', async () => {
    const deviceId = uniq('device');
    await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'super-secret-attempt' },
      headers: { 'x-device-id': deviceId },
    });
    const event = await waitForEvent(
      platform,
      'auth.login.failed',
      (e) => e.device_id === deviceId,
    );
    expect(JSON.stringify(event)).not.toContain('super-secret-attempt');
  });
});

describe('the stream', () => {
  it.runIf(realServers.nats)('keeps login events for 7 days on JetStream', async () => {
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const { connect } = await import('@nats-io/transport-node');
    const nc = await connect({ servers: platform.settings.nats.url });
    try {
      const info = await (await jetstreamManager(nc)).streams.info(platform.settings.nats.stream);
      expect(info.config.max_age).toBe(7 * 24 * 3600 * 1e9);
      expect(info.config.subjects).toContain(`${platform.settings.nats.subjectPrefix}auth.>`);
    } finally {
      await nc.close();
    }
  });
});

describe('login with the event stream down', () => {
  it('still signs in promptly when NATS cannot be reached', async () => {
    const offline = await startTestPlatform({
      NATS_URL: 'nats://127.0.0.1:4',
      NATS_STREAM: 'OFFLINE',
    });
    try {
      const started = Date.now();
      const res = await offline.call('POST', '/api/v1/login', {
        body: { username: 'admin', password: 'admin123' },
      });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await offline.close();
    }
  });
});
