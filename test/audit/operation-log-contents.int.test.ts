import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationLogTables } from '../../src/platform/audit/operation-log-writer.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createUser, dataOf, PASSWORD, signedInUserWith } from '../identity/identity-fixtures.js';
import { approval, chain, flowHelpers } from '../bpm/fixtures.js';
import { fetchCsv } from './export-csv.js';

// What the operation log records and what it leaves out (issue 15, findings 4, 8 and 12).

let platform: TestPlatform;
let admin: string;
let db: Kysely<OperationLogTables>;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
  db = platform.kernel.database.db.withTables<OperationLogTables>();
});
afterAll(async () => {
  await platform?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (in SQL, so the wait itself writes no logs) until `requestIds` are all stored. */
async function waitStored(requestIds: string[]) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const row = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', 'in', requestIds)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= requestIds.length) return;
    if (Date.now() > deadline) throw new Error('operation logs not stored within 5 s');
    await sleep(100);
  }
}

/** The entry of `requestId` as `token` reads it through the audit API (list, then detail). */
async function entryOf(token: string, requestId: string) {
  const list = dataOf(
    await platform.call('GET', `/api/v1/operation-logs?request_id=${requestId}`, { token }),
  );
  expect(list.list).toHaveLength(1);
  return dataOf(await platform.call('GET', `/api/v1/operation-logs/${list.list[0].id}`, { token }));
}

/** A call with its own request id, returned beside the answer. */
async function traced(method: string, path: string, options: { token?: string; body?: unknown }) {
  const requestId = `rec-${randomUUID()}`;
  const res = await platform.call(method, path, {
    ...options,
    headers: { 'x-request-id': requestId },
  });
  return { res, requestId };
}

const codeAt = (secret: string, offset: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

describe('the second factor never reaches the operation log', () => {
  it('stores no body of /me/totp/*, and masks totp_code on /login', async () => {
    const user = await createUser(platform, admin);
    const { access_token: token } = await platform.login(user.username, PASSWORD);
    const enrol = await traced('POST', '/api/v1/me/totp/enroll', {
      token,
      body: { password: PASSWORD },
    });
    expect(enrol.res.status).toBe(200);
    const { secret, otpauth_uri: uri } = enrol.res.body.data as {
      secret: string;
      otpauth_uri: string;
    };
    const confirm = await traced('POST', '/api/v1/me/totp/confirm', {
      token,
      body: { code: await codeAt(secret, -1), password: PASSWORD },
    });
    expect(confirm.res.status).toBe(200);
    const recovery = confirm.res.body.data.recovery_codes as string[];
    const totpCode = await codeAt(secret, 0);
    const login = await traced('POST', '/api/v1/login', {
      body: { username: user.username, password: PASSWORD, totp_code: totpCode },
    });
    expect(login.res.status).toBe(200);
    const ids = [enrol.requestId, confirm.requestId, login.requestId];
    await waitStored(ids);

    const stored = await Promise.all(ids.map((id) => entryOf(admin, id)));
    const text = JSON.stringify(stored);
    for (const leaked of [secret, uri, 'otpauth://', totpCode, ...recovery]) {
      expect(text).not.toContain(leaked);
    }
    const [enrolled, confirmed, signedIn] = stored;
    expect(enrolled).toMatchObject({ status: 200, response_body: '[omitted]' });
    expect(confirmed).toMatchObject({
      status: 200,
      request_body: '[omitted]',
      response_body: '[omitted]',
    });
    expect(JSON.parse(signedIn.request_body)).toEqual({
      username: user.username,
      password: '***',
      totp_code: '***',
    });
    // Nor in the CSV export.
    const csv = await fetchCsv(
      `${platform.url}/api/v1/operation-logs/export?path=/me/totp/`,
      admin,
    );
    expect(csv.res.status).toBe(200);
    expect(csv.text).toContain(enrol.requestId);
    for (const leaked of [secret, 'otpauth://', ...recovery])
      expect(csv.text).not.toContain(leaked);
  });

  it('stores no body of an OAuth client creation or secret rotation', async () => {
    const created = await traced('POST', '/api/v1/oauth2/clients', {
      token: admin,
      body: {
        name: uniq('client'),
        redirect_uris: ['https://app.example/cb'],
        grant_types: ['authorization_code'],
      },
    });
    expect(created.res.status).toBe(200);
    const id = created.res.body.data.client_id as string;
    const rotated = await traced('POST', `/api/v1/oauth2/clients/${id}/secret`, { token: admin });
    expect(rotated.res.status).toBe(200);
    await waitStored([created.requestId, rotated.requestId]);
    for (const { requestId, res } of [created, rotated]) {
      const entry = await entryOf(admin, requestId);
      expect(entry.response_body).toBe('[omitted]');
      expect(JSON.stringify(entry)).not.toContain(res.body.data.client_secret);
    }
  });
});

describe('BPM form values never reach the operation log', () => {
  it('keeps an approver\u2019s edit of an editable field out of every body, values and comment', async () => {
    const { publish, start, pendingTaskOf, users } = flowHelpers(platform, () => admin);
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('a', [approver.id], { editableFields: ['reason'] })));
    const before = uniq('before-value');
    const after = uniq('after-value');
    const comment = uniq('comment-text');
    const started = await start(initiator, def.key, { reason: before, days: 2 });
    expect(started.status).toBe(200);
    const instanceId = started.body.data.id as number;
    const task = await pendingTaskOf(approver, instanceId);
    const approve = await traced('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: approver.token,
      body: { form: { reason: after }, comment },
    });
    expect(approve.res.status).toBe(200);
    const timeline = await traced('GET', `/api/v1/bpm/instances/${instanceId}/timeline`, {
      token: initiator.token,
    });
    expect(JSON.stringify(timeline.res.body)).toContain(after); // the participant sees it
    await waitStored([approve.requestId, timeline.requestId]);

    const [approved, read] = [
      await entryOf(admin, approve.requestId),
      await entryOf(admin, timeline.requestId),
    ];
    for (const entry of [approved, read]) {
      for (const value of [before, after, comment]) {
        expect(JSON.stringify(entry)).not.toContain(value);
      }
    }
    // What happened stays readable: ids, statuses, codes.
    expect(JSON.parse(approved.response_body)).toMatchObject({
      code: 200,
      data: {
        id: task.id,
        status: expect.any(String),
        instance: { id: instanceId, status: expect.any(String), form: '***' },
      },
    });
    expect(JSON.parse(read.response_body).data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          instance_id: instanceId,
          action: 'edit',
          details: { changes: '***' },
        }),
      ]),
    );
  });
});

describe('anonymous entries', () => {
  it('are read only by platform admins, not by a tenant-1 log reader', async () => {
    const refused = await traced('GET', '/api/v1/users', {});
    expect(refused.res.status).toBe(401);
    await waitStored([refused.requestId]);
    const reader = await signedInUserWith(platform, admin, ['system:log:operation']);

    const byReader = dataOf(
      await platform.call('GET', `/api/v1/operation-logs?request_id=${refused.requestId}`, {
        token: reader.token,
      }),
    );
    expect(byReader.list).toEqual([]);
    const anyAnonymous = dataOf(
      await platform.call('GET', '/api/v1/operation-logs?anonymous=true', { token: reader.token }),
    );
    expect(anyAnonymous.total).toBe(0);
    const csv = await fetchCsv(`${platform.url}/api/v1/operation-logs/export`, reader.token);
    expect(csv.res.status).toBe(200);
    expect(csv.text).not.toContain(refused.requestId);

    const entry = await entryOf(admin, refused.requestId);
    expect(entry).toMatchObject({ tenant_id: null, anonymous: true, user_id: null, status: 401 });
    const detail = await platform.call('GET', `/api/v1/operation-logs/${entry.id}`, {
      token: reader.token,
    });
    expect(detail.status).toBe(404);
    const adminCsv = await fetchCsv(
      `${platform.url}/api/v1/operation-logs/export?request_id=${refused.requestId}`,
      admin,
    );
    expect(adminCsv.text).toContain(refused.requestId);
  });
});

// Last in the file: it reruns the migration over the whole table.
describe('migration 0019', () => {
  it('clears second factors and BPM bodies already written, and moves anonymous rows out of tenant 1', async () => {
    const row = (requestId: string, values: Record<string, unknown>) => ({
      tenant_id: 1,
      user_id: 1,
      username: 'u',
      module: 'me',
      action: 'POST /x',
      method: 'POST',
      path: '/api/v1/x',
      status: 200,
      ip: '',
      user_agent: '',
      latency_ms: 1,
      request_id: requestId,
      request_body: null,
      response_body: null,
      created_at: new Date(),
      ...values,
    });
    const ids = Array.from({ length: 6 }, () => `mig-${randomUUID()}`);
    const kept = '{"code":200,"data":{"id":7,"name":"Finance"}}';
    await db
      .insertInto('audit_operation_logs')
      .values([
        row(ids[0]!, {
          path: '/api/v1/me/totp/enroll',
          response_body: '{"data":{"secret":"***","otpauth_uri":"otpauth://totp/A:u?secret=S"}}',
        }),
        row(ids[1]!, {
          path: '/api/v1/me//TOTP/confirm',
          request_body: '{"code":"123456"}',
          response_body: '{"data":{"recovery_codes":["a-b"]}}',
        }),
        row(ids[2]!, {
          module: 'login',
          path: '/api/v1/login',
          request_body: '{"username":"u","password":"***","totp_code":"123456"}',
          response_body: kept,
        }),
        row(ids[3]!, { path: '/api/v1/oauth2/clients/c_1/secret', response_body: kept }),
        row(ids[4]!, {
          module: 'bpm',
          path: '/api/v1/bpm/instances/1/timeline',
          response_body: '{"data":[{"details":{"changes":[{"before":1,"after":2}]}}]}',
        }),
        row(ids[5]!, { tenant_id: 1, anonymous: true, user_id: null, response_body: kept }),
      ])
      .execute();
    const text = await readFile(
      new URL('../../migrations/0019_operation_log_contents.sql', import.meta.url),
      'utf8',
    );
    await platform.kernel.database.withSession((session) => session.runScript(text));
    const rows = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', 'in', ids)
      .select(['request_id', 'tenant_id', 'request_body', 'response_body'])
      .execute();
    const byId = Object.fromEntries(rows.map((r) => [r.request_id, r]));
    expect(ids.map((id) => byId[id])).toEqual([
      { request_id: ids[0], tenant_id: 1, request_body: null, response_body: '[omitted]' },
      { request_id: ids[1], tenant_id: 1, request_body: '[omitted]', response_body: '[omitted]' },
      { request_id: ids[2], tenant_id: 1, request_body: '[omitted]', response_body: kept },
      { request_id: ids[3], tenant_id: 1, request_body: null, response_body: '[omitted]' },
      { request_id: ids[4], tenant_id: 1, request_body: null, response_body: '[omitted]' },
      { request_id: ids[5], tenant_id: null, request_body: null, response_body: kept },
    ]);
  });
});
