import { createServer, request as rawRequest, type IncomingHttpHeaders } from 'node:http';
import { GATEWAY_ROUTES } from '../../src/start.js';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/start.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { buildGatewayApp } from '../../src/services/gateway/gateway.app.js';
import { startTestPlatform, TEST_JWT_SECRET, type TestPlatform } from '../helpers/platform.js';

// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection: the client's to the gateway.
// Forwarded, they either break the upstream request (undici refuses Expect, Keep-Alive and
// Upgrade) or let a client speak to the service's connection (Proxy-Authorization, TE).

/** What the platform logged at error level (a 503 with a stack is the failure this pins). */
const errorLines: string[] = [];
const logs = new Writable({
  write(chunk: Buffer, _encoding, done) {
    const line = chunk.toString();
    if (JSON.parse(line).level >= 50) errorLines.push(line);
    done();
  },
});

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({}, { logs });
});
afterAll(() => platform?.close());

interface RawAnswer {
  status: number;
  body: string;
  /** True when the gateway answered `100 Continue` before the final status. */
  continued: boolean;
}

/**
 * A request from a raw client that sends exactly `headers` (node:http adds only Host and,
 * without Content-Length, chunked framing). With `Expect: 100-continue` the body waits for the
 * interim answer, as curl and .NET/Java clients do.
 */
function send(
  url: string,
  headers: Record<string, string>,
  chunks: (string | Buffer)[],
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = rawRequest(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, continued }));
    });
    req.on('error', reject);
    const writeBody = () => {
      for (const chunk of chunks) req.write(chunk);
      req.end();
    };
    if (headers.expect) {
      req.on('continue', () => {
        continued = true;
        writeBody();
      });
      req.flushHeaders();
    } else writeBody();
  });
}

const LOGIN = JSON.stringify({ username: 'nobody-here', password: 'wrong-password-1' });

describe('Expect: 100-continue', () => {
  it('reaches the service (a wrong password is 401, not 503) and logs no error', async () => {
    const res = await send(
      `${platform.url}/api/v1/login`,
      {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(LOGIN)),
        expect: '100-continue',
      },
      [LOGIN],
    );
    expect(res.continued).toBe(true);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).code).toBe(40103);
    expect(errorLines).toEqual([]);
  });

  it('answers a chunked body over the limit with 413 in the envelope', async () => {
    const res = await send(
      `${platform.url}/api/v1/login`,
      { 'content-type': 'application/json', expect: '100-continue' },
      Array.from({ length: 20 }, () => 'a'.repeat(64 * 1024)),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).code).toBe(41300);
    expect(errorLines).toEqual([]);
  });
});

describe('hop-by-hop headers', () => {
  it('are dropped at the gateway, with every header the Connection header names', async () => {
    const seen: IncomingHttpHeaders[] = [];
    let body = '';
    const upstream = createServer((req, res) => {
      seen.push({ ...req.headers });
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end('{"code":200,"message":"success","data":null}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    const settings = loadSettings({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent' });
    const gateway = await buildGatewayApp({
      routes: GATEWAY_ROUTES,
      settings,
      logger: createLogger('silent'),
      cache: platform.kernel.cache,
      // The login route is public: no token is needed to reach this upstream.
      upstreams: { ...platform.serviceUrls, auth: `http://127.0.0.1:${port}` },
      forwardAuth: { verify: () => Promise.reject(new Error('not used')), close: async () => {} },
    });
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    const address = gateway.app.server.address() as { port: number };
    try {
      const res = await send(
        `http://127.0.0.1:${address.port}/api/v1/login`,
        {
          'content-type': 'application/json',
          connection: 'keep-alive, x-hop-only',
          'keep-alive': 'timeout=5',
          'x-hop-only': 'for the next hop only',
          'proxy-authorization': 'Basic c2VjcmV0OnNlY3JldA==',
          'proxy-connection': 'keep-alive',
          te: 'trailers',
          trailer: 'x-checksum',
          expect: '100-continue',
          'x-kept': 'end to end',
        },
        [LOGIN],
      );
      expect(res.status).toBe(200);
    } finally {
      await gateway.close();
      upstream.closeAllConnections();
      upstream.close();
    }
    const forwarded = Object.keys(seen[0]!);
    for (const name of [
      'keep-alive',
      'x-hop-only',
      'proxy-authorization',
      'proxy-connection',
      'te',
      'trailer',
      'expect',
    ]) {
      expect(forwarded, name).not.toContain(name);
    }
    expect(seen[0]!['x-kept']).toBe('end to end');
    expect(body).toBe(LOGIN);
  });
});
