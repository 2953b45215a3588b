import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
let token: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  token = await platform.adminToken();
});
afterAll(() => platform?.close());

/** The envelope of a refusal: `status`, a five-digit `code` starting with it, no internals. */
function expectEnvelope(
  res: { status: number; body: any; text: string },
  status: number,
  code: number,
) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ code, message: expect.any(String), data: res.body.data });
  expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'message']);
  expect(res.text).not.toMatch(/statusCode|FST_|\n\s+at /);
}

const MIB = 1024 * 1024;

describe('one request never stalls the process', () => {
  it('answers 1 MiB bodies of every shape on a public route while readiness stays fast', async () => {
    const text = `username=a&password=${'password'.repeat(MIB / 8 - 4)}`.slice(0, MIB);
    const json = JSON.stringify({
      username: 'u'.repeat(MIB / 2 - 64),
      password: 'password='.repeat(MIB / 18 - 8),
    });
    const form = `username=x&${'token='.repeat(MIB / 6 - 4)}`.slice(0, MIB);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(MIB);
    const shapes = [
      { body: text, type: 'text/plain', status: 415, code: 41500 },
      { body: json, type: 'application/json', status: 400, code: 40001 },
      { body: form, type: 'application/x-www-form-urlencoded', status: 415, code: 41500 },
    ];
    const probe = async () => {
      const started = performance.now();
      const res = await fetch(`${platform.url}/api/v1/health/ready`);
      expect(res.status).toBe(200);
      await res.text();
      return performance.now() - started;
    };
    // A stalled process takes seconds: a backtracking pattern or a synchronous parse of the
    // whole body holds every probe until it ends. On a quiet machine a probe takes a few
    // milliseconds; on a machine other work slows down (CI runs the suites' workers side by
    // side, and readiness asks every service) one probe may wait a few hundred behind a parse
    // without anything having stalled: CI saw 326 ms. The bound is three times the slowest of a
    // few probes just before, and never below one second.
    const baseline: number[] = [];
    for (let k = 0; k < 5; k++) baseline.push(await probe());
    const bound = Math.max(1000, 3 * Math.max(...baseline));
    let done = false;
    const probes: number[] = [];
    const probing = (async () => {
      while (!done) probes.push(await probe());
    })();
    const answers = await Promise.all(
      shapes.map((shape) =>
        platform.call('POST', '/api/v1/login', {
          rawBody: shape.body,
          headers: { 'content-type': shape.type },
        }),
      ),
    );
    // The operation-log entries are built after the answers: keep probing past them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    done = true;
    await probing;
    answers.forEach((res, k) => expectEnvelope(res, shapes[k]!.status, shapes[k]!.code));
    expect(probes.length).toBeGreaterThan(2);
    expect(Math.max(...probes)).toBeLessThan(bound);
  });
});

/** A raw request (fetch normalises URLs, so bad encodings are sent by hand). */
function rawRequest(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: any; text: string; headers: http.IncomingHttpHeaders }> {
  const url = new URL(platform.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // kept as text
          }
          resolve({ status: res.statusCode!, body, text, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('every refusal in the envelope', () => {
  it.each(['/api/v1/operation-logs', '/api/v1/login-logs', '/api/v1/logs/audit'])(
    'answers a page beyond 2^53 on %s with 40000',
    async (list) => {
      for (const page of ['9007199254740993', '9007199254740992', '1000000001', '1e400']) {
        const res = await platform.call('GET', `${list}?page=${page}`, { token });
        expectEnvelope(res, 400, 40000);
      }
      const last = await platform.call('GET', `${list}?page=1000000000&page_size=100`, { token });
      expect(last.status).toBe(200);
      expect(last.body.data.list).toEqual([]);
    },
  );

  it('answers invalid percent-encoding with 40000, through the gateway and on a service', async () => {
    for (const base of [platform.url, platform.serviceUrls.bpm]) {
      const url = new URL(base);
      const res = await new Promise<{ status: number; text: string; id: unknown }>((resolve) => {
        http
          .request(
            {
              host: url.hostname,
              port: url.port,
              path: '/api/v1/bpm/tasks/%FF%FE/approve',
              method: 'POST',
            },
            (r) => {
              let text = '';
              r.on('data', (c) => (text += c));
              r.on('end', () =>
                resolve({ status: r.statusCode!, text, id: r.headers['x-request-id'] }),
              );
            },
          )
          .end();
      });
      expectEnvelope({ ...res, body: JSON.parse(res.text) }, 400, 40000);
      expect(res.id).toEqual(expect.any(String));
    }
    expectEnvelope(await rawRequest('/api/v1/users/%E0%A4%A'), 400, 40000);
  });

  it('answers a NUL in a query value with 40000 before anything is streamed (the CSV exports too)', async () => {
    for (const path of [
      '/api/v1/operation-logs/export?path=a%00b',
      '/api/v1/logs/audit/export?keyword=a%00b',
      '/api/v1/operation-logs?username=%00',
    ]) {
      const res = await platform.call('GET', path, { token });
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe(40000);
    }
  });

  it('answers an over-long path parameter with 41400 and an over-long URL with 43100', async () => {
    const longParam = await platform.call('GET', `/api/v1/bpm/tasks/${'7'.repeat(5000)}`, {
      token,
    });
    expectEnvelope(longParam, 414, 41400);
    const onService = await rawRequest(`/api/v1/users/${'a'.repeat(200)}`);
    expect([401, 414]).toContain(onService.status);
    const direct = await fetch(`${platform.serviceUrls.identity}/api/v1/users/${'a'.repeat(200)}`);
    const directText = await direct.text();
    expectEnvelope(
      { status: direct.status, body: JSON.parse(directText), text: directText },
      414,
      41400,
    );
    const longUrl = await rawRequest(`/api/v1/users?keyword=${'a'.repeat(100_000)}`);
    expectEnvelope(longUrl, 431, 43100);
  });

  it('answers bodies that are not JSON with 41500 and bad JSON with 40000', async () => {
    for (const [type, body] of [
      ['text/plain', '{"name":"x"}'],
      ['application/x-www-form-urlencoded', 'name=x'],
      ['application/xml', '<name>x</name>'],
    ] as const) {
      const res = await platform.call('POST', '/api/v1/departments', {
        token,
        rawBody: body,
        headers: { 'content-type': type },
      });
      expectEnvelope(res, 415, 41500);
    }
    const noType = await rawRequest('/api/v1/departments', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-length': '12' },
      body: '{"name":"x"}',
    });
    expectEnvelope(noType, 415, 41500);
    const bad = await platform.call('POST', '/api/v1/departments', { token, rawBody: '{"name":' });
    expectEnvelope(bad, 400, 40000);
  });

  /** A client that uploads slowly and reads the answer whenever it comes. */
  function slowUpload(size: number, chunked: boolean): Promise<string[]> {
    const url = new URL(`${platform.url}/api/v1/departments`);
    return new Promise((resolve) => {
      const events: string[] = [];
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      };
      if (!chunked) headers['content-length'] = String(size);
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => events.push(`${res.statusCode} ${JSON.parse(text).code}`));
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => events.push(`error ${err.code}`));
      req.on('close', () => setTimeout(() => resolve(events), 20));
      const chunk = Buffer.alloc(256 * 1024, 'a');
      let sent = 0;
      const timer = setInterval(() => {
        if (req.destroyed) return clearInterval(timer);
        req.write(chunk);
        sent += chunk.length;
        if (sent >= size) {
          clearInterval(timer);
          req.end();
        }
      }, 10);
    });
  }

  it('keeps a keep-alive connection usable after an answer given before the body was read', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(platform.url);
    const body = Buffer.alloc(400 * 1024, 'a');
    const send = (path: string, auth: boolean) =>
      new Promise<number>((resolve, reject) => {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'content-length': String(body.length),
        };
        if (auth) headers.authorization = `Bearer ${token}`;
        const req = http.request(
          { host: url.hostname, port: url.port, path, method: 'PUT', headers, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
        req.on('error', reject);
        req.end(body);
      });
    try {
      // Refused by the gateway (no token) and by a service (not JSON), each twice in a row.
      for (let k = 0; k < 2; k++) expect(await send('/api/v1/users/5', false)).toBe(401);
      for (let k = 0; k < 2; k++) expect(await send('/api/v1/users/5', true)).toBe(400);
    } finally {
      agent.destroy();
    }
  });

  it('lets a client still uploading a body over 1 MiB read the 413 instead of a reset', async () => {
    for (let k = 0; k < 4; k++) {
      expect(await slowUpload(2 * MIB, false)).toEqual(['413 41300']);
      expect(await slowUpload(2 * MIB, true)).toEqual(['413 41300']);
    }
  });
});
