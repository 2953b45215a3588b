import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/platform/errors.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { createDefinition } from '../bpm/fixtures.js';
import { createTenantWithAdmin } from '../identity/identity-fixtures.js';
import {
  ENDPOINTS,
  bodyBytes,
  contentType,
  encodeAll,
  pathId,
  query,
  who,
  type Caller,
} from './arbitraries.js';

// Property-based fuzzing of every endpoint family through the gateway: whatever the query, path
// id, body, content type or encoding, the answer is a success or one of the contract's 4xx codes
// in the envelope; never a 5xx, never another body shape.

let platform: TestPlatform;
const tokens: Record<Caller, string | undefined> = {
  platformAdmin: undefined,
  tenantAdmin: undefined,
  none: undefined,
};

beforeAll(async () => {
  // The rate limiter would turn most of the run into 429s.
  platform = await startTestPlatform({
    GATEWAY_RATE_AVERAGE: '100000',
    GATEWAY_RATE_BURST: '100000',
  });
  tokens.platformAdmin = await platform.adminToken();
  // Writes go through a tenant admin, so the run cannot lock the platform admin out.
  tokens.tenantAdmin = (await createTenantWithAdmin(platform, tokens.platformAdmin)).token;
  // Some real records for the ids to hit: a published definition and a running instance.
  const definition = await createDefinition(platform, tokens.platformAdmin);
  const id = definition.body.data.id;
  await platform.call('POST', `/api/v1/bpm/definitions/${id}/publish`, {
    token: tokens.platformAdmin,
  });
  await platform.call('POST', '/api/v1/bpm/instances', {
    token: tokens.platformAdmin,
    body: { definition_id: id, form: { reason: 'fuzz', days: 1 } },
  });
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await platform?.close();
});

const CONTRACT_CODES = new Set<number>(
  Object.values(ERROR_CODES).filter((code) => code >= 40000 && code < 50000),
);

// One keep-alive connection for the whole run: an answer that leaves a body half-read would
// stall (and then reset) the requests after it.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  text: string;
  contentType: string | undefined;
}

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Answer> {
  const url = new URL(platform.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method, headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, text, contentType: res.headers['content-type'] }),
        );
      },
    );
    req.on('error', reject);
    // No request may stall: one that is not answered in time fails the property with its path
    // (instead of the whole test timing out with nothing to show).
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${method} ${path}`)),
    );
    req.end(body);
  });
}

const REQUEST_TIMEOUT_MS = 5_000;

/** Success, or a contract 4xx in the envelope. */
function checkAnswer(answer: Answer, request: string) {
  const where = `${request} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  if (answer.status < 300) {
    if (answer.contentType?.startsWith('application/json')) {
      expect(JSON.parse(answer.text).code, where).toBe(200);
    }
    return;
  }
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`not an envelope: ${where}`);
  }
  expect(Object.keys(body).sort(), where).toEqual(['code', 'data', 'message']);
  expect(CONTRACT_CODES.has(body.code), where).toBe(true);
  expect(Math.floor(body.code / 100), where).toBe(answer.status);
  expect(typeof body.message, where).toBe('string');
  expect(answer.text, where).not.toMatch(/\n\s+at |node_modules|statusCode/);
}

const endpoint = fc.constantFrom(...ENDPOINTS);

async function call(
  [method, template]: readonly [string, string],
  id: string,
  params: Array<[string, string]>,
  caller: keyof typeof tokens,
  body?: { bytes: Buffer; type: string | undefined },
) {
  const search = params.map(([k, v]) => `${encodeAll(k)}=${v}`).join('&');
  const path = `${template.replace(':id', id)}${search ? `?${search}` : ''}`;
  const headers: Record<string, string> = {};
  const token = tokens[caller];
  if (token) headers.authorization = `Bearer ${token}`;
  if (body?.type) headers['content-type'] = body.type;
  // Framed explicitly: Node sends a GET or DELETE body without a length otherwise, and the
  // server rightly reads it as the start of a malformed second request.
  if (body) headers['content-length'] = String(body.bytes.length);
  const answer = await send(method, path, headers, body?.bytes);
  checkAnswer(answer, `${method} ${path.slice(0, 200)} as ${caller}`);
}

describe('fuzzing every endpoint family', () => {
  it('answers random query values and path ids with success or a contract 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(endpoint, pathId, query, who, (e, id, params, caller) =>
        call(e, id, params, caller),
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
  }, 120_000);

  it('answers random, malformed and badly encoded bodies with success or a contract 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        endpoint.filter(([method]) => method !== 'GET'),
        pathId,
        who,
        bodyBytes,
        contentType,
        (e, id, caller, bytes, type) => call(e, id, [], caller, { bytes, type }),
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
  }, 120_000);

  it('is still healthy afterwards', async () => {
    const res = await platform.call('GET', '/api/v1/health/ready');
    expect(res.status).toBe(200);
  });
});
