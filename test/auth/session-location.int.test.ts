import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

const PASSWORD = 'Located-User-Pass-4';

// A stand-in for the online geolocation service of AUDIT_GEO_ONLINE_URL (ip-api.com's shape).
let geo: Server;
let platform: TestPlatform;
beforeAll(async () => {
  geo = createServer((req, res) => {
    const ip = decodeURIComponent(req.url!.slice(1));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ country: 'Exampleland', regionName: 'North', city: `At-${ip}` }));
  });
  await new Promise<void>((resolve) => geo.listen(0, '127.0.0.1', resolve));
  platform = await startTestPlatform({
    AUDIT_GEO_ONLINE_URL: `http://127.0.0.1:${(geo.address() as AddressInfo).port}/{ip}`,
    // The test client is the proxy in front of the gateway: its X-Forwarded-For is the client.
    GATEWAY_TRUST_PROXY: '1',
  });
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => geo?.close(resolve));
});

async function signIn(username: string, deviceId: string, forwardedFor?: string) {
  const res = await platform.call('POST', '/api/v1/login', {
    body: { username, password: PASSWORD },
    headers: {
      'x-device-id': deviceId,
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
  });
  expect(res.status).toBe(200);
  return res.body.data as { access_token: string };
}

describe('the location of a session', () => {
  it('is where its address is, as the login log shows it; "intranet" for a private address', async () => {
    const username = uniq('loc');
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password: PASSWORD },
    });
    expect(created.status).toBe(200);
    await platform.login(username, PASSWORD); // the first sign-in's password change
    const away = await signIn(username, 'dev-away', '203.0.113.7');
    await signIn(username, 'dev-office');

    const mine = await platform.call('GET', '/api/v1/me/sessions', { token: away.access_token });
    expect(mine.status).toBe(200);
    const byDevice = new Map(
      (mine.body.data as Array<Record<string, any>>).map((s) => [s.device_id, s]),
    );
    expect(byDevice.get('dev-away')).toMatchObject({
      ip: '203.0.113.7',
      location: 'Exampleland North At-203.0.113.7',
      current: true,
    });
    expect(byDevice.get('dev-office')).toMatchObject({ ip: '127.0.0.1', location: 'intranet' });

    const listed = await platform.call('GET', `/api/v1/sessions?user_id=${created.body.data.id}`, {
      token: await platform.adminToken(),
    });
    expect(listed.status).toBe(200);
    const adminView = (listed.body.data as Array<Record<string, any>>).find(
      (s) => s.device_id === 'dev-away',
    );
    expect(adminView?.location).toBe('Exampleland North At-203.0.113.7');

    // The login log of that sign-in names the same place.
    const admin = await platform.adminToken();
    let logged: Record<string, any> | undefined;
    for (let i = 0; i < 75 && !logged; i++) {
      const logs = await platform.call('GET', `/api/v1/login-logs?username=${username}`, {
        token: admin,
      });
      logged = (logs.body.data.list as Array<Record<string, any>>).find(
        (l) => l.device_id === 'dev-away',
      );
      if (!logged) await new Promise((r) => setTimeout(r, 200));
    }
    expect(logged?.location).toBe(byDevice.get('dev-away')!.location);
  });
});
