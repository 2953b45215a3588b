import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationLogTables } from '../../src/platform/audit/operation-log-writer.js';
import { EXPORT_COLUMNS } from '../../src/services/audit/operation-logs/operation-logs.schema.js';
import {
  EXPORT_MAX_ROWS,
  OperationLogsService,
} from '../../src/services/audit/operation-logs/operation-logs.service.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import {
  createTenantWithAdmin,
  createUser,
  dataOf,
  PASSWORD,
} from '../identity/identity-fixtures.js';
import { csvObjects, fetchCsv, parseCsv } from './export-csv.js';
import { createDefinition } from '../bpm/fixtures.js';

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

/** Polls the list (as `token`) until `query` matches `count` rows; fails after 5 s. */
async function waitForLogs(token: string, query: string, count = 1) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const res = await platform.call('GET', `/api/v1/operation-logs?${query}`, { token });
    const data = dataOf(res);
    // The page and its count are two statements: wait for the rows themselves, not the count.
    if (data.list.length >= count) return data.list as any[];
    if (Date.now() > deadline) throw new Error(`no operation log for ${query} within 5 s`);
    await sleep(100);
  }
}

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

const detailOf = async (token: string, id: number) =>
  dataOf(await platform.call('GET', `/api/v1/operation-logs/${id}`, { token }));

describe('operation logs: recording', () => {
  it('records a request with every field and masks nested secrets in both bodies', async () => {
    const requestId = `op-${randomUUID()}`;
    const username = uniq('oplog');
    const started = Date.now();
    const created = dataOf(
      await platform.call('POST', '/api/v1/users', {
        token: admin,
        headers: { 'x-request-id': requestId, 'user-agent': 'oplog-test/1.0' },
        body: { username, password: PASSWORD, nickname: 'Op' },
      }),
    );
    const [item] = await waitForLogs(admin, `request_id=${requestId}`);
    expect(Date.now() - started).toBeLessThan(5000);
    const detail = await detailOf(admin, item.id);
    expect(detail).toMatchObject({
      id: item.id,
      tenant_id: 1,
      user_id: 1,
      username: 'admin',
      module: 'users',
      action: 'POST /users',
      method: 'POST',
      path: '/api/v1/users',
      status: 200,
      user_agent: 'oplog-test/1.0',
      request_id: requestId,
      anonymous: false,
    });
    expect(detail.ip).toMatch(/127\.0\.0\.1/);
    expect(detail.latency_ms).toBeGreaterThanOrEqual(0);
    expect(detail.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(detail).sort()).toEqual([...EXPORT_COLUMNS].sort());
    const requestBody = JSON.parse(detail.request_body);
    expect(requestBody).toEqual({ username, password: '***', nickname: 'Op' });
    expect(JSON.parse(detail.response_body).data).toMatchObject({ id: created.id, username });
    expect(detail.request_body).not.toContain(PASSWORD);
    // The list shows the same record without the bodies.
    const { request_body: _q, response_body: _r, ...rest } = detail;
    expect(item).toEqual(rest);
  });

  it('records the requests the gateway refuses itself, and a served request once', async () => {
    const noToken = `op-${randomUUID()}`;
    const badToken = `op-${randomUUID()}`;
    const unknownRoute = `op-${randomUUID()}`;
    const served = `op-${randomUUID()}`;
    const call = (path: string, requestId: string, token?: string) =>
      platform.call('GET', path, { token, headers: { 'x-request-id': requestId } });
    expect((await call('/api/v1/users', noToken)).status).toBe(401);
    expect((await call('/api/v1/users', badToken, 'not-a-jwt')).status).toBe(401);
    expect((await call('/api/v1/no-such-module', unknownRoute, admin)).status).toBe(404);
    expect((await call('/api/v1/users', served, admin)).status).toBe(200);
    await waitStored([noToken, badToken, unknownRoute, served]);
    const rows = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', 'in', [noToken, badToken, unknownRoute, served])
      .select(['request_id', 'tenant_id', 'anonymous', 'status', 'module', 'path', 'request_body'])
      .execute();
    const byId = Object.fromEntries(rows.map((r) => [r.request_id, r]));
    expect(rows).toHaveLength(4);
    // Refused before a principal was established: anonymous, in no tenant.
    expect(byId[noToken]).toMatchObject({
      tenant_id: null,
      anonymous: true,
      status: 401,
      module: 'users',
    });
    expect(byId[badToken]).toMatchObject({
      tenant_id: null,
      anonymous: true,
      status: 401,
      path: '/api/v1/users',
    });
    expect(byId[unknownRoute]).toMatchObject({
      status: 404,
      anonymous: true,
      module: 'no-such-module',
    });
    expect(byId[served]).toMatchObject({ tenant_id: 1, anonymous: false, status: 200 });
  });

  it('stores NUL characters, which PostgreSQL text cannot hold, without losing the batch', async () => {
    const requestId = `op-${randomUUID()}`;
    const res = await platform.call('POST', '/api/v1/login', {
      headers: { 'x-request-id': requestId },
      body: { username: 'nul\u0000user', password: 'a\u0000b' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    await waitStored([requestId]);
    const row = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', '=', requestId)
      .select(['username', 'request_body'])
      .executeTakeFirstOrThrow();
    // A raw column gets U+FFFD; the body keeps the character as its JSON escape.
    expect(row.username).toBe('nul\uFFFDuser');
    expect(JSON.parse(row.request_body!)).toEqual({ username: 'nul\u0000user', password: '***' });
  });

  it('attributes a login to the named tenant and the signed-in user, masking tokens', async () => {
    const t = await createTenantWithAdmin(platform, admin);
    const requestId = `login-${randomUUID()}`;
    const res = await platform.call('POST', '/api/v1/login', {
      headers: { 'x-request-id': requestId },
      body: { username: t.adminUsername, password: PASSWORD, tenant_code: t.tenant.code },
    });
    expect(res.status).toBe(200);
    const [item] = await waitForLogs(t.token, `request_id=${requestId}`);
    const detail = await detailOf(t.token, item.id);
    expect(detail).toMatchObject({
      tenant_id: t.tenant.id,
      user_id: t.adminId,
      username: t.adminUsername,
      module: 'login',
      action: 'POST /login',
      status: 200,
    });
    expect(JSON.parse(detail.request_body)).toEqual({
      username: t.adminUsername,
      password: '***',
      tenant_code: t.tenant.code,
    });
    const response = JSON.parse(detail.response_body);
    expect(response.data).toMatchObject({
      access_token: '***',
      refresh_token: '***',
      token_type: 'Bearer',
    });
    expect(detail.response_body).not.toContain(res.body.data.access_token);
    // Not visible to the default tenant.
    const other = dataOf(
      await platform.call('GET', `/api/v1/operation-logs?request_id=${requestId}`, {
        token: admin,
      }),
    );
    expect(other.total).toBe(0);

    // A failed login only claims the tenant: not the tenant's, but anonymous in no tenant (the
    // platform admin reads it), with the username it claimed and no user id.
    const failedId = `login-${randomUUID()}`;
    const failed = await platform.call('POST', '/api/v1/login', {
      headers: { 'x-request-id': failedId },
      body: { username: t.adminUsername, password: 'wrong-password', tenant_code: t.tenant.code },
    });
    expect(failed.status).toBe(401);
    const [failedItem] = await waitForLogs(admin, `request_id=${failedId}&anonymous=true`);
    expect(failedItem).toMatchObject({
      tenant_id: null,
      anonymous: true,
      user_id: null,
      username: t.adminUsername,
      status: 401,
    });
    const inTenant = await platform.call('GET', `/api/v1/operation-logs?request_id=${failedId}`, {
      token: t.token,
    });
    expect(dataOf(inTenant).total).toBe(0);
    const notAnonymous = await platform.call(
      'GET',
      `/api/v1/operation-logs?request_id=${failedId}&anonymous=false`,
      { token: admin },
    );
    expect(dataOf(notAnonymous).total).toBe(0);
  });

  it('stores BPM bodies without form values', async () => {
    const created = await createDefinition(platform, admin);
    expect(created.status).toBe(200);
    const definitionId = created.body.data.id;
    expect(
      (
        await platform.call('POST', `/api/v1/bpm/definitions/${definitionId}/publish`, {
          token: admin,
        })
      ).status,
    ).toBe(200);
    const secret = `form-secret-${randomUUID()}`;
    const startId = `bpm-${randomUUID()}`;
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: admin,
      headers: { 'x-request-id': startId },
      body: { definition_id: definitionId, form: { reason: secret, days: 2 } },
    });
    expect(started.status).toBe(200);
    const detailId = `bpm-${randomUUID()}`;
    const detail = await platform.call('GET', `/api/v1/bpm/instances/${started.body.data.id}`, {
      token: admin,
      headers: { 'x-request-id': detailId },
    });
    expect(detail.text).toContain(secret);
    await waitStored([startId, detailId]);
    const rows = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', 'in', [startId, detailId])
      .select(['request_id', 'request_body', 'response_body'])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(`${row.request_body} ${row.response_body}`).not.toContain(secret);
      expect(row.response_body).toContain('"form":"***"');
    }
    const startRow = rows.find((r) => r.request_id === startId)!;
    expect(JSON.parse(startRow.request_body!)).toEqual({
      definition_id: definitionId,
      form: '***',
    });
  });

  it('does not record health probes', async () => {
    // Paths under /api/v1, which would be recorded but for the health rule.
    const gatewayProbe = `health-${randomUUID()}`;
    const bpmProbe = `health-${randomUUID()}`;
    expect(
      (
        await platform.call('GET', '/api/v1/health/ready', {
          headers: { 'x-request-id': gatewayProbe },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await platform.call('GET', '/api/v1/bpm/health/ready', {
          headers: { 'x-request-id': bpmProbe },
        })
      ).status,
    ).toBe(200);
    const marker = `marker-${randomUUID()}`;
    await platform.call('GET', '/api/v1/users?page=1', {
      token: admin,
      headers: { 'x-request-id': marker },
    });
    // Entries are written in the order they were recorded: once the later marker is stored,
    // the probes' entries would be too.
    await waitStored([marker]);
    const rows = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', 'in', [gatewayProbe, bpmProbe])
      .selectAll()
      .execute();
    expect(rows).toHaveLength(0);
  });
});

describe('operation logs: list, filters, detail', () => {
  it('filters by user, module, method, status, path and time, newest first', async () => {
    const { token, adminId, adminUsername } = await createTenantWithAdmin(platform, admin);
    const start = new Date().toISOString();
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await platform.call('GET', '/api/v1/users', { token, headers: { 'x-request-id': ids[0]! } });
    await platform.call('GET', '/api/v1/users/999999999', {
      token,
      headers: { 'x-request-id': ids[1]! },
    });
    await platform.call('GET', '/api/v1/roles', { token, headers: { 'x-request-id': ids[2]! } });
    await waitStored(ids);
    const end = new Date(Date.now() + 1000).toISOString();
    const query = async (q: string) =>
      dataOf(
        await platform.call(
          'GET',
          `/api/v1/operation-logs?start_time=${start}&end_time=${end}&${q}`,
          { token },
        ),
      ).list.map((row: any) => row.request_id);
    expect(await query('module=users')).toEqual([ids[1], ids[0]]);
    expect(await query('module=roles')).toEqual([ids[2]]);
    expect(await query('status=404')).toEqual([ids[1]]);
    expect(await query('method=get&path=users/9999')).toEqual([ids[1]]);
    expect(await query(`user_id=${adminId}&module=roles`)).toEqual([ids[2]]);
    expect(await query(`username=${adminUsername.slice(0, 6)}&module=roles`)).toEqual([ids[2]]);
    expect(await query('user_id=999999999')).toEqual([]);
    const before = dataOf(
      await platform.call('GET', `/api/v1/operation-logs?end_time=${start}&module=roles`, {
        token,
      }),
    );
    expect(before.total).toBe(0);
    const bad = await platform.call('GET', '/api/v1/operation-logs?status=abc', { token });
    expect(bad.status).toBe(400);
  });

  it("answers 404 for another tenant's log and for an unknown id", async () => {
    const requestId = randomUUID();
    await platform.call('GET', '/api/v1/users', {
      token: admin,
      headers: { 'x-request-id': requestId },
    });
    const [item] = await waitForLogs(admin, `request_id=${requestId}`);
    const other = await createTenantWithAdmin(platform, admin);
    const res = await platform.call('GET', `/api/v1/operation-logs/${item.id}`, {
      token: other.token,
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(40400);
    expect(
      (await platform.call('GET', '/api/v1/operation-logs/999999999', { token: admin })).status,
    ).toBe(404);
  });

  it('refuses a user without the permission codes', async () => {
    const user = await createUser(platform, admin);
    const { access_token: token } = await platform.login(user.username, PASSWORD);
    for (const [method, path] of [
      ['GET', '/api/v1/operation-logs'],
      ['GET', '/api/v1/operation-logs/1'],
      ['GET', '/api/v1/operation-logs/stats'],
      ['GET', '/api/v1/operation-logs/export'],
      ['DELETE', '/api/v1/operation-logs/clear?days=0'],
    ] as const) {
      const res = await platform.call(method, path, { token });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe(40300);
    }
  });
});

describe('operation logs: stats', () => {
  it('counts totals, errors, latency, modules, statuses and top paths of the range', async () => {
    const { token } = await createTenantWithAdmin(platform, admin);
    const start = new Date().toISOString();
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await platform.call('GET', '/api/v1/users', { token, headers: { 'x-request-id': ids[0]! } });
    await platform.call('GET', '/api/v1/users', { token, headers: { 'x-request-id': ids[1]! } });
    await platform.call('GET', '/api/v1/roles/999999999', {
      token,
      headers: { 'x-request-id': ids[2]! },
    });
    await waitStored(ids);
    const rows = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', 'in', ids)
      .select('latency_ms')
      .execute();
    const latencies = rows.map((r) => r.latency_ms).sort((a, b) => a - b);
    const avg = latencies.reduce((a, b) => a + b, 0) / 3;
    const p95 = latencies[1]! + 0.9 * (latencies[2]! - latencies[1]!);

    const stats = dataOf(
      await platform.call('GET', `/api/v1/operation-logs/stats?start_time=${start}`, { token }),
    );
    expect(stats).toMatchObject({
      total: 3,
      errors: 1,
      by_module: [
        { module: 'users', count: 2 },
        { module: 'roles', count: 1 },
      ],
      by_status: [
        { status: 200, count: 2 },
        { status: 404, count: 1 },
      ],
    });
    expect(stats.avg_latency_ms).toBeCloseTo(avg, 1);
    expect(stats.p95_latency_ms).toBeCloseTo(p95, 1);
    expect(stats.top_paths[0]).toMatchObject({ path: '/api/v1/users', count: 2 });
    expect(stats.top_paths).toHaveLength(2);
  });
});

/** The export as raw bytes (fetch's text() would strip the BOM) and its parsed records. */
const exportBytes = (token: string, query = '') =>
  fetchCsv(`${platform.url}/api/v1/operation-logs/export${query}`, token);

interface SeedLog {
  user_id?: number | null;
  username?: string;
  module?: string;
  method?: string;
  path?: string;
  status?: number;
  ip?: string;
  user_agent?: string;
  latency_ms?: number;
  request_id?: string;
  request_body?: string | null;
  response_body?: string | null;
  created_at?: string;
}

/** Inserts operation logs for `tenantId` straight into the table; returns their ids in order. */
async function insertLogs(tenantId: number, logs: SeedLog[]): Promise<number[]> {
  const ids: number[] = [];
  for (const l of logs) {
    const row = await db
      .insertInto('audit_operation_logs')
      .values({
        tenant_id: tenantId,
        user_id: l.user_id === undefined ? 1 : l.user_id,
        username: l.username ?? 'seed',
        module: l.module ?? 'seed',
        action: `${l.method ?? 'GET'} /seed`,
        method: l.method ?? 'GET',
        path: l.path ?? '/api/v1/seed',
        status: l.status ?? 200,
        ip: l.ip ?? '10.0.0.1',
        user_agent: l.user_agent ?? 'agent',
        latency_ms: l.latency_ms ?? 1,
        request_id: l.request_id ?? randomUUID(),
        request_body: l.request_body ?? null,
        response_body: l.response_body ?? null,
        created_at: sql<Date>`${l.created_at ?? new Date().toISOString()}::timestamptz`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  return ids;
}

describe('operation logs: CSV export', () => {
  it('streams UTF-8 CSV with a BOM and a header row of field names', async () => {
    const { token } = await createTenantWithAdmin(platform, admin);
    const requestId = randomUUID();
    await platform.call('GET', '/api/v1/users', { token, headers: { 'x-request-id': requestId } });
    await waitStored([requestId]);
    const { res, bytes, text } = await exportBytes(token, `?request_id=${requestId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = text.slice(1).trimEnd().split('\n');
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(requestId);
    expect(lines[1]).toContain('/api/v1/users');
  });

  it(`stops at ${EXPORT_MAX_ROWS} rows`, async () => {
    const t = await createTenantWithAdmin(platform, admin);
    await sql`
      INSERT INTO audit_operation_logs (tenant_id, user_id, username, module, action, method, path,
        status, ip, user_agent, latency_ms, request_id, created_at)
      SELECT ${t.tenant.id}, NULL, 'seed', 'seed', 'GET /seed', 'GET', '/api/v1/seed', 200, '',
        '', 1, 'seed-' || g, now() - g * interval '1 millisecond'
      FROM generate_series(1, ${EXPORT_MAX_ROWS + 1}) AS g`.execute(db);
    const { res, text } = await exportBytes(t.token, '?module=seed');
    expect(res.status).toBe(200);
    const lines = text.slice(1).trimEnd().split('\n');
    expect(lines).toHaveLength(EXPORT_MAX_ROWS + 1);
    // Newest first: seed-1 is the newest, seed-50001 the one left out.
    expect(lines[1]).toContain('seed-1,');
    expect(text).not.toContain(`seed-${EXPORT_MAX_ROWS + 1},`);
  }, 60_000);

  it('quotes commas, quotes and line breaks, prefixes formulas, and leaves numbers alone', async () => {
    const t = await createTenantWithAdmin(platform, admin);
    const [id] = await insertLogs(t.tenant.id, [
      {
        user_id: null,
        username: '=HYPERLINK("http://evil","x")',
        module: '+sum',
        method: 'POST',
        path: '/api/v1/csvq/a,b"c',
        status: 201,
        ip: '@10.0.0.9',
        user_agent: 'multi\nline\r\nagent',
        latency_ms: 42,
        request_id: '\tcsvq-tab',
        request_body: '{"amount":"-1","note":"a, \\"b\\""}',
        response_body: null,
        created_at: '2026-01-02T03:04:05.678901Z',
      },
    ]);
    const { res, records } = await exportBytes(t.token, '?path=csvq');
    expect(res.status).toBe(200);
    expect(csvObjects(records)).toEqual([
      {
        id: String(id),
        tenant_id: String(t.tenant.id),
        anonymous: 'false',
        user_id: '',
        username: `'=HYPERLINK("http://evil","x")`,
        module: "'+sum",
        action: 'POST /seed',
        method: 'POST',
        path: '/api/v1/csvq/a,b"c',
        status: '201',
        ip: "'@10.0.0.9",
        user_agent: 'multi\nline\r\nagent',
        latency_ms: '42',
        request_id: "'\tcsvq-tab",
        request_body: '{"amount":"-1","note":"a, \\"b\\""}',
        response_body: '',
        created_at: '2026-01-02T03:04:05.678Z',
      },
    ]);
  });

  it("exports only the caller's tenant, with every filter applied", async () => {
    const mine = await createTenantWithAdmin(platform, admin);
    const theirs = await createTenantWithAdmin(platform, admin);
    const seed = (tenantId: number) =>
      insertLogs(tenantId, [
        {
          user_id: 5,
          username: 'ann',
          module: 'users',
          method: 'GET',
          status: 200,
          path: '/api/v1/users/fq',
          request_id: `fq-1-${tenantId}`,
          created_at: '2026-03-01T00:00:00Z',
        },
        {
          user_id: 6,
          username: 'bob',
          module: 'roles',
          method: 'POST',
          status: 400,
          path: '/api/v1/roles/fq',
          request_id: `fq-2-${tenantId}`,
          created_at: '2026-03-02T00:00:00Z',
        },
        {
          user_id: 5,
          username: 'annie',
          module: 'roles',
          method: 'DELETE',
          status: 200,
          path: '/api/v1/roles/fq/1',
          request_id: `fq-3-${tenantId}`,
          created_at: '2026-03-03T00:00:00Z',
        },
        {
          user_id: 6,
          username: 'bob',
          module: 'users',
          method: 'GET',
          status: 404,
          path: '/api/v1/users/fq/2',
          request_id: `fq-4-${tenantId}`,
          created_at: '2026-03-04T00:00:00Z',
        },
      ]);
    const ids = await seed(mine.tenant.id);
    await seed(theirs.tenant.id);
    const cases: Array<[string, number[]]> = [
      ['?path=/fq', [ids[3]!, ids[2]!, ids[1]!, ids[0]!]],
      ['?path=/fq&user_id=5', [ids[2]!, ids[0]!]],
      ['?path=/fq&username=ANN', [ids[2]!, ids[0]!]],
      ['?path=/fq&module=roles', [ids[2]!, ids[1]!]],
      ['?path=/fq&method=get', [ids[3]!, ids[0]!]],
      ['?path=/fq&status=200', [ids[2]!, ids[0]!]],
      ['?path=roles/fq', [ids[2]!, ids[1]!]],
      [`?request_id=fq-2-${mine.tenant.id}`, [ids[1]!]],
      [`?request_id=fq-2-${theirs.tenant.id}`, []],
      [
        '?path=/fq&start_time=2026-03-02T00:00:00Z&end_time=2026-03-04T00:00:00Z',
        [ids[2]!, ids[1]!],
      ],
    ];
    for (const [query, expected] of cases) {
      const { records } = await exportBytes(mine.token, query);
      expect(
        records.slice(1).map((r) => Number(r[0])),
        query,
      ).toEqual(expected);
    }
  });

  it('pages by time and id without skipping or repeating rows that share a time', async () => {
    const t = await createTenantWithAdmin(platform, admin);
    // Same millisecond, different microseconds, and exact ties: only the full time and the id
    // order them, across pages of 3.
    const times = [
      '2026-05-01T00:00:00.100900Z',
      '2026-05-01T00:00:00.100100Z',
      '2026-05-01T00:00:00.100500Z',
      '2026-05-01T00:00:00.100500Z',
      '2026-05-01T00:00:00.100500Z',
      '2026-05-01T00:00:00.100500Z',
      '2026-05-01T00:00:00.099999Z',
      '2026-05-01T00:00:00.101000Z',
      '2026-05-01T00:00:00.100100Z',
      '2026-05-01T00:00:00.100900Z',
    ];
    const ids = await insertLogs(
      t.tenant.id,
      times.map((created_at) => ({ created_at, path: '/api/v1/tied' })),
    );
    const expected = ids
      .map((id, k) => ({ id, at: times[k]! }))
      .sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1))
      .map((r) => r.id);
    const principal = { tenantId: t.tenant.id } as Principal;
    for (const [maxRows, rows] of [
      [50_000, expected],
      [7, expected.slice(0, 7)],
      [6, expected.slice(0, 6)],
    ] as const) {
      const logs = new OperationLogsService({ db, exportPageRows: 3, exportMaxRows: maxRows });
      const stream = logs.exportCsv(principal, { path: '/api/v1/tied' });
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      const records = parseCsv(text.replace(/^\uFEFF/, ''));
      expect(records[0]).toEqual([...EXPORT_COLUMNS]);
      expect(
        records.slice(1).map((r) => Number(r[0])),
        `cap ${maxRows}`,
      ).toEqual(rows);
    }
  });
});

describe('operation logs: clear', () => {
  it('refuses days that are not an integer ≥ 0', async () => {
    for (const days of ['-1', 'abc', '1e309', '1.5', '']) {
      const res = await platform.call('DELETE', `/api/v1/operation-logs/clear?days=${days}`, {
        token: admin,
      });
      expect(res.status, days).toBe(400);
      expect(res.body.code).toBe(40000);
    }
    const missing = await platform.call('DELETE', '/api/v1/operation-logs/clear', {
      token: admin,
    });
    expect(missing.status).toBe(400);
  });

  it("deletes only the caller's tenant's logs older than the given days", async () => {
    const ownId = randomUUID();
    await platform.call('GET', '/api/v1/users', {
      token: admin,
      headers: { 'x-request-id': ownId },
    });
    const t = await createTenantWithAdmin(platform, admin);
    const theirs = randomUUID();
    await platform.call('GET', '/api/v1/users', {
      token: t.token,
      headers: { 'x-request-id': theirs },
    });
    await waitStored([ownId, theirs]);
    // An old row, so days=1 has something to delete.
    await sql`
      INSERT INTO audit_operation_logs (tenant_id, username, module, action, method, path, status,
        latency_ms, request_id, created_at)
      VALUES (${t.tenant.id}, 'old', 'users', 'GET /users', 'GET', '/api/v1/users', 200, 1,
        'old-row', now() - interval '3 days')`.execute(db);

    const one = dataOf(
      await platform.call('DELETE', '/api/v1/operation-logs/clear?days=1', { token: t.token }),
    );
    expect(one).toEqual({ deleted: 1 });
    expect(
      dataOf(
        await platform.call('GET', `/api/v1/operation-logs?request_id=${theirs}`, {
          token: t.token,
        }),
      ).total,
    ).toBe(1);

    const all = dataOf(
      await platform.call('DELETE', '/api/v1/operation-logs/clear?days=0', { token: t.token }),
    );
    expect(all.deleted).toBeGreaterThanOrEqual(1);
    const left = await db
      .selectFrom('audit_operation_logs')
      .where('request_id', '=', theirs)
      .selectAll()
      .execute();
    expect(left).toHaveLength(0);
    // The default tenant's log is still there.
    expect(
      dataOf(
        await platform.call('GET', `/api/v1/operation-logs?request_id=${ownId}`, { token: admin }),
      ).total,
    ).toBe(1);
  });
});
