import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';

// The in-container SMS entry: the system service's own port only, X-Internal-Token, a real HTTP
// provider started here.

const TOKEN = 'sms-internal-token-Zr8Kq2vWm5xTn7pHd3f';
const PROVIDER_TOKEN = 'provider-bearer-Lc9jBg4yQs6';
const received: Array<{ headers: IncomingHttpHeaders; body: any }> = [];
let mode: 'ok' | 'fail' | 'hang' = 'ok';
let provider: Server;
let platform: TestPlatform;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += String(c)));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw) });
      if (mode === 'hang') return; // never answers
      res.writeHead(mode === 'ok' ? 200 : 500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: mode === 'ok' }));
    });
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()));
  platform = await startTestPlatform({
    SYSTEM_INTERNAL_TOKEN: TOKEN,
    SMS_PROVIDER_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/sms`,
    SMS_PROVIDER_TOKEN: PROVIDER_TOKEN,
  });
});
afterAll(async () => {
  await platform?.close();
  provider?.closeAllConnections();
  await new Promise((r) => provider?.close(r));
});

async function send(
  body: unknown,
  token: string | null = TOKEN,
  base = platform.serviceUrls.system,
) {
  const res = await fetch(`${base}/internal/sms/send`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token !== null ? { 'x-internal-token': token } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('the SMS entry', () => {
  it('sends a template or a text through the provider with its bearer token', async () => {
    mode = 'ok';
    const templated = await send({
      phone: '+8613800000000',
      template_code: 'LOGIN_CODE',
      params: { code: '1234' },
    });
    expect(templated).toEqual({
      status: 200,
      body: { code: 200, message: 'success', data: { provider_status: 200 } },
    });
    expect(received.at(-1)).toMatchObject({
      headers: { authorization: `Bearer ${PROVIDER_TOKEN}`, 'content-type': 'application/json' },
      body: { phone: '+8613800000000', template_code: 'LOGIN_CODE', params: { code: '1234' } },
    });
    expect((await send({ phone: '13800000000', text: 'Your meeting starts at 10.' })).status).toBe(
      200,
    );
    expect(received.at(-1)!.body).toEqual({
      phone: '13800000000',
      text: 'Your meeting starts at 10.',
    });
  });

  it('answers 502 when the provider fails or does not answer within 5 s', async () => {
    mode = 'fail';
    const failed = await send({ phone: '13800000000', text: 'x' });
    expect([failed.status, failed.body.code]).toEqual([502, 50200]);
    mode = 'hang';
    const started = Date.now();
    const silent = await send({ phone: '13800000000', text: 'x' });
    expect([silent.status, silent.body.code]).toEqual([502, 50200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(Date.now() - started).toBeLessThan(9_000);
    mode = 'ok';
  }, 20_000);

  it('refuses a missing or wrong token (40104) and bad bodies (40001) without calling the provider', async () => {
    const before = received.length;
    for (const token of [null, 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const res = await send({ phone: '13800000000', text: 'x' }, token);
      expect([res.status, res.body.code]).toEqual([401, 40104]);
    }
    for (const body of [
      { phone: '13800000000' },
      { phone: '13800000000', text: 'x', template_code: 'T' },
      { phone: 'call me', text: 'x' },
      { phone: '13800000000', text: 'x'.repeat(501) },
      { phone: '13800000000', template_code: 'bad code!' },
    ]) {
      const res = await send(body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 60)).toEqual([400, 40001]);
    }
    expect(received.length).toBe(before);
  });

  it('is not reachable through the gateway', async () => {
    const res = await send({ phone: '13800000000', text: 'x' }, TOKEN, platform.url);
    expect([res.status, res.body.code]).toEqual([404, 40400]);
  });
});

describe('the SMS entry without a token configured', () => {
  let bare: TestPlatform;
  beforeAll(async () => {
    bare = await startTestPlatform({ SYSTEM_INTERNAL_TOKEN: '' });
  });
  afterAll(() => bare?.close());

  it('fails closed with 503, whatever token is sent', async () => {
    for (const token of [null, '', TOKEN]) {
      const res = await send({ phone: '13800000000', text: 'x' }, token, bare.serviceUrls.system);
      expect([res.status, res.body.code]).toEqual([503, 50300]);
    }
  });
});
