import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers } from '../bpm/fixtures.js';
import { csvObjects, fetchCsv } from './export-csv.js';

let platform: TestPlatform;
let admin: string;
const db = () => platform.kernel.database.db;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

/** A fresh tenant and its admin's token: its own chain, untouched by the other tests. */
async function freshTenant() {
  const code = uniq('t').toLowerCase();
  const res = await platform.call('POST', '/api/v1/tenants', {
    token: admin,
    body: {
      code,
      name: 'Audit tenant',
      admin_username: 'chief',
      admin_password: 'Chief-Passw0rd!',
    },
  });
  expect(res.status).toBe(200);
  const session = await platform.login('chief', 'Chief-Passw0rd!', code);
  return { id: res.body.data.id as number, token: session.access_token, adminId: session.user.id };
}

const audit = (token: string, query = '') =>
  platform.call('GET', `/api/v1/logs/audit${query}`, { token });

describe('business audit', () => {
  it('records create, update and delete of a user with before and after, secrets left out', async () => {
    const tenant = await freshTenant();
    const created = await platform.call('POST', '/api/v1/users', {
      token: tenant.token,
      body: { username: 'auditee', password: 'Auditee-Passw0rd!', nickname: 'Before' },
    });
    const id = created.body.data.id;
    await platform.call('PUT', `/api/v1/users/${id}`, {
      token: tenant.token,
      body: { nickname: 'After', password: 'Changed-Passw0rd!' },
    });
    await platform.call('DELETE', `/api/v1/users/${id}`, { token: tenant.token });
    const res = await audit(tenant.token, `?target_type=user&target_id=${id}`);
    expect(res.status).toBe(200);
    const rows = res.body.data.list;
    expect(rows.map((r: any) => r.action)).toEqual(['delete', 'update', 'create']);
    const update = rows[1];
    expect(update).toMatchObject({
      target_type: 'user',
      target_id: String(id),
      actor_name: 'chief',
      tenant_id: tenant.id,
    });
    expect(update.before.nickname).toBe('Before');
    expect(update.after.nickname).toBe('After');
    expect(JSON.stringify(rows)).not.toMatch(/Passw0rd|argon2/);
    expect(res.body.data.facets.action).toEqual(
      expect.arrayContaining([
        { value: 'create', count: 1 },
        { value: 'update', count: 1 },
        { value: 'delete', count: 1 },
      ]),
    );
  });

  it('records role permission changes and BPM definition publishing', async () => {
    const tenant = await freshTenant();
    const role = await platform.call('POST', '/api/v1/roles', {
      token: tenant.token,
      body: { code: 'clerk', name: 'Clerk', permissions: ['system:user:list'] },
    });
    await platform.call('PUT', `/api/v1/roles/${role.body.data.id}`, {
      token: tenant.token,
      body: { permissions: ['system:user:list', 'system:role:list'] },
    });
    const def = await platform.call('POST', '/api/v1/bpm/definitions', {
      token: tenant.token,
      body: {
        key: 'audited-flow',
        name: 'Audited',
        form_mode: 'flow',
        form_schema: { fields: [] },
        node_tree: {
          id: 'start',
          type: 'start',
          name: 'S',
          child: {
            id: 'a',
            type: 'approval',
            name: 'A',
            // Publishing refuses users the tenant does not have: its own administrator.
            assignee: { type: 'users', userIds: [tenant.adminId] },
            mode: 'or',
            child: null,
          },
        },
      },
    });
    const published = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${def.body.data.id}/publish`,
      { token: tenant.token },
    );
    expect(published.status).toBe(200);
    const roleRows = (await audit(tenant.token, '?target_type=role')).body.data.list;
    expect(roleRows[0].before.permissions).toEqual(['system:user:list']);
    expect(roleRows[0].after.permissions).toEqual(['system:role:list', 'system:user:list']);
    const defRows = (await audit(tenant.token, '?target_type=definition')).body.data.list;
    expect(defRows.map((r: any) => r.action)).toEqual(['publish', 'create']);
    expect(defRows[0].after.status).toBe('published');
  });

  it('shows each tenant only its own rows', async () => {
    const [a, b] = [await freshTenant(), await freshTenant()];
    await platform.call('POST', '/api/v1/roles', {
      token: a.token,
      body: { code: 'only_a', name: 'A', permissions: [] },
    });
    const seenByB = await audit(b.token, '?keyword=only_a');
    expect(seenByB.body.data.total).toBe(0);
    expect((await audit(a.token, '?keyword=only_a')).body.data.total).toBe(1);
  });

  it('needs system:log:audit', async () => {
    const username = uniq('plain');
    await platform.call('POST', '/api/v1/users', {
      token: admin,
      body: { username, password: 'Plain-Passw0rd!' },
    });
    const { access_token } = await platform.login(username, 'Plain-Passw0rd!');
    expect((await audit(access_token)).status).toBe(403);
  });

  it('rolls the change back when its audit row cannot be written', async () => {
    await sql`CREATE OR REPLACE FUNCTION refuse_doomed_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.summary LIKE '%doomed%' THEN RAISE EXCEPTION 'audit store refused'; END IF; RETURN NEW; END $$`.execute(
      db(),
    );
    await sql`CREATE TRIGGER refuse_doomed_audit BEFORE INSERT ON audit_business_logs
      FOR EACH ROW EXECUTE FUNCTION refuse_doomed_audit()`.execute(db());
    try {
      const code = `doomed_${uniq('r').toLowerCase()}`;
      const res = await platform.call('POST', '/api/v1/roles', {
        token: admin,
        body: { code, name: 'Doomed', permissions: [] },
      });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe(50000);
      const left = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM iam_roles WHERE code = ${code}`.execute(db());
      expect(left.rows[0]!.n).toBe(0);
    } finally {
      await sql`DROP TRIGGER refuse_doomed_audit ON audit_business_logs`.execute(db());
    }
  });
});

describe('an audit row that cannot be written', () => {
  /**
   * Runs `body` while the audit store refuses every row about `target` (a trigger raising on
   * insert: the audit write fails inside the change's transaction, after the change's own
   * statements ran).
   */
  async function withRefusedAudit(target: { type: string; id: number }, body: () => Promise<void>) {
    await sql`CREATE TABLE IF NOT EXISTS refused_audit_targets (target_type text, target_id text)`.execute(
      db(),
    );
    await sql`CREATE OR REPLACE FUNCTION refuse_audit_target() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM refused_audit_targets
                   WHERE target_type = NEW.target_type AND target_id = NEW.target_id) THEN
          RAISE EXCEPTION 'audit store refused';
        END IF;
        RETURN NEW;
      END $$`.execute(db());
    await sql`CREATE OR REPLACE TRIGGER refuse_audit_target BEFORE INSERT ON audit_business_logs
      FOR EACH ROW EXECUTE FUNCTION refuse_audit_target()`.execute(db());
    await sql`INSERT INTO refused_audit_targets VALUES (${target.type}, ${String(target.id)})`.execute(
      db(),
    );
    try {
      await body();
    } finally {
      await sql`DELETE FROM refused_audit_targets WHERE target_type = ${target.type}
        AND target_id = ${String(target.id)}`.execute(db());
    }
  }

  it('fails an update of an existing row with 500 and leaves the row as it was', async () => {
    const code = uniq('kept').toLowerCase();
    const created = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code, name: 'Kept', permissions: ['system:user:list'] },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    const before = (await platform.call('GET', `/api/v1/roles/${id}`, { token: admin })).body.data;
    await withRefusedAudit({ type: 'role', id }, async () => {
      const res = await platform.call('PUT', `/api/v1/roles/${id}`, {
        token: admin,
        body: { name: 'Changed', permissions: ['*'] },
      });
      expect([res.status, res.body.code]).toEqual([500, 50000]);
    });
    const after = (await platform.call('GET', `/api/v1/roles/${id}`, { token: admin })).body.data;
    expect(after).toEqual(before);
    const rows = await sql<{ action: string }>`SELECT action FROM audit_business_logs
      WHERE target_type = 'role' AND target_id = ${String(id)} ORDER BY seq`.execute(db());
    expect(rows.rows.map((r) => r.action)).toEqual(['create']);
  });

  it('fails a BPM reassign with 500: the task keeps its holder, and no outbox row is written', async () => {
    const { publish, start, pendingTaskOf, users, get } = flowHelpers(platform, () => admin);
    const [initiator, holder, successor] = await users(3);
    const def = await publish(chain(approval('n', [holder.id])));
    const id = (await start(initiator, def.key)).body.data.id as number;
    const task = await pendingTaskOf(holder, id);
    const outbox = () =>
      sql<{ target: string; user_ids: number[] }>`
        SELECT target, payload->'user_ids' AS user_ids FROM bpm_outbox
        WHERE (payload->>'instance_id')::bigint = ${id} ORDER BY id`.execute(db());
    const outboxBefore = (await outbox()).rows;
    // The start's "todo" notice to the holder; a reassign would add one to the successor.
    expect(outboxBefore).toEqual([{ target: 'todo', user_ids: [holder.id] }]);
    await withRefusedAudit({ type: 'task', id: task.id }, async () => {
      const res = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/reassign`, {
        token: admin,
        body: { to_user_id: successor.id },
      });
      expect([res.status, res.body.code]).toEqual([500, 50000]);
    });
    expect((await pendingTaskOf(holder, id)).id).toBe(task.id);
    const detail = await get(admin, `/api/v1/bpm/tasks/${task.id}`);
    expect(detail.body.data).toMatchObject({ assignee_id: holder.id, status: 'pending' });
    expect(detail.body.data.original_assignee_id ?? null).toBeNull();
    expect((await outbox()).rows).toEqual(outboxBefore);
    const timeline = await get(initiator, `/api/v1/bpm/instances/${id}/timeline`);
    expect(timeline.body.data.map((e: any) => e.action)).not.toContain('reassign');
    // The same reassign goes through once the audit store takes rows again.
    const moved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/reassign`, {
      token: admin,
      body: { to_user_id: successor.id },
    });
    expect(moved.status).toBe(200);
    expect((await outbox()).rows).toEqual([
      ...outboxBefore,
      { target: 'todo', user_ids: [successor.id] },
    ]);
  });
});

describe('tamper evidence', () => {
  it('verifies an intact chain and names the first edited row', async () => {
    const tenant = await freshTenant();
    for (const code of ['r1', 'r2', 'r3']) {
      await platform.call('POST', '/api/v1/roles', {
        token: tenant.token,
        body: { code, name: code, permissions: [] },
      });
    }
    const intact = await platform.call('GET', '/api/v1/logs/audit/verify', { token: tenant.token });
    expect(intact.body.data).toEqual({ ok: true, checked: 3, first_broken: null });
    await sql`UPDATE audit_business_logs SET after = '{"code":"forged"}'::jsonb WHERE tenant_id = ${tenant.id} AND seq = 2`.execute(
      db(),
    );
    const broken = await platform.call('GET', '/api/v1/logs/audit/verify', { token: tenant.token });
    expect(broken.body.data.ok).toBe(false);
    expect(broken.body.data.first_broken).toMatchObject({
      seq: 2,
      reason: expect.stringMatching(/changed/),
    });
  });

  it('detects a deleted middle row and deleted tail rows', async () => {
    const tenant = await freshTenant();
    for (const code of ['d1', 'd2', 'd3', 'd4']) {
      await platform.call('POST', '/api/v1/roles', {
        token: tenant.token,
        body: { code, name: code, permissions: [] },
      });
    }
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenant.id} AND seq = 4`.execute(
      db(),
    );
    const tail = await platform.call('GET', '/api/v1/logs/audit/verify', { token: tenant.token });
    expect(tail.body.data.first_broken).toMatchObject({
      seq: 4,
      reason: expect.stringMatching(/removed/),
    });
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenant.id} AND seq = 2`.execute(
      db(),
    );
    const middle = await platform.call('GET', '/api/v1/logs/audit/verify', { token: tenant.token });
    expect(middle.body.data.first_broken).toMatchObject({
      seq: 3,
      reason: expect.stringMatching(/missing/),
    });
  });
});

const exportUrl = (query = '') => `${platform.url}/api/v1/logs/audit/export${query}`;

/** Inserts audit rows for `tenantId` straight into the table (the chain columns are filler). */
async function insertAuditRows(
  tenantId: number,
  rows: Array<{
    actor_id?: number;
    actor_name?: string;
    action: string;
    target_type?: string;
    target_id?: string;
    before?: unknown;
    after?: unknown;
    summary?: string;
    created_at?: string;
  }>,
) {
  let seq = 10_000;
  for (const r of rows) {
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    await sql`INSERT INTO audit_business_logs
        (tenant_id, seq, actor_id, actor_name, action, target_type, target_id, before, after, summary, prev_hash, hash, created_at)
      VALUES (${tenantId}, ${seq++}, ${r.actor_id ?? 1}, ${r.actor_name ?? 'loader'}, ${r.action},
        ${r.target_type ?? 'role'}, ${r.target_id ?? '1'}, ${json(r.before)}::jsonb, ${json(r.after)}::jsonb,
        ${r.summary ?? 'seeded'}, '', '', ${r.created_at ?? new Date().toISOString()}::timestamptz)`.execute(
      db(),
    );
  }
}

describe('CSV export', () => {
  it('streams UTF-8 with a BOM and a header row, at most 50 000 rows, the newest', async () => {
    const tenant = await freshTenant();
    await sql`INSERT INTO audit_business_logs
        (tenant_id, seq, actor_id, actor_name, action, target_type, target_id, before, after, summary, prev_hash, hash, created_at)
      SELECT ${tenant.id}, 1000 + g, 1, 'loader', 'update', 'role', g::text, NULL, '{"n":1}'::jsonb, 'bulk ' || g, '', '', now()
      FROM generate_series(1, 50010) AS g`.execute(db());
    const { res, bytes, records } = await fetchCsv(exportUrl('?action=update'), tenant.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(records[0]!.join(',')).toBe(
      'id,created_at,actor_id,actor_name,action,target_type,target_id,summary,before,after',
    );
    expect(records.length - 1).toBe(50_000);
    // Newest first across every page: the 50 000 highest ids, each once, in descending order.
    const ids = records.slice(1).map((r) => Number(r[0]));
    const { rows } = await sql<{ max: number }>`SELECT max(id)::int AS max FROM audit_business_logs
      WHERE tenant_id = ${tenant.id}`.execute(db());
    expect(ids[0]).toBe(rows[0]!.max);
    expect(ids.every((id, k) => k === 0 || id === ids[k - 1]! - 1)).toBe(true);
    expect(records.at(-1)).toEqual([
      String(rows[0]!.max - 49_999),
      expect.any(String),
      '1',
      'loader',
      'update',
      'role',
      '11',
      'bulk 11',
      'null',
      '{"n": 1}',
    ]);
  }, 60_000);

  it('quotes commas, quotes and line breaks, and writes the values the list shows', async () => {
    const tenant = await freshTenant();
    await insertAuditRows(tenant.id, [
      {
        action: 'update',
        actor_name: 'O"Brien, Pat',
        target_id: 'a,b',
        summary: 'line one\nline two, with "quotes"\r\nand a CR',
        before: { name: 'say "hi"', list: [1, 2], nested: { s: 'x,\ny' } },
        after: { name: '=1+1' },
        created_at: '2026-01-02T03:04:05.678901Z',
      },
      { action: 'delete', summary: '', before: { gone: true }, after: undefined },
      { action: 'create', summary: '-2 + 3', target_id: ' padded ', after: 'plain text' },
    ]);
    const { res, records } = await fetchCsv(exportUrl(), tenant.token);
    expect(res.status).toBe(200);
    const exported = csvObjects(records).filter((r) => r.actor_name !== 'chief');
    const listed = (await audit(tenant.token, '?page_size=100')).body.data.list.filter(
      (r: any) => r.actor_name !== 'chief',
    );
    expect(exported).toHaveLength(3);
    expect(exported.map((r) => Number(r.id))).toEqual(listed.map((r: any) => r.id));
    // Cells a spreadsheet would run as formulas get a leading quote; the rest are as listed.
    const guarded = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    for (const [k, row] of exported.entries()) {
      const item = listed[k];
      expect({ ...row, before: JSON.parse(row.before!), after: JSON.parse(row.after!) }).toEqual({
        id: String(item.id),
        created_at: item.created_at,
        actor_id: String(item.actor_id),
        actor_name: guarded(item.actor_name),
        action: guarded(item.action),
        target_type: guarded(item.target_type),
        target_id: guarded(item.target_id),
        summary: guarded(item.summary),
        before: item.before,
        after: item.after,
      });
    }
    const first = exported.find((r) => r.action === 'update')!;
    expect(first.created_at).toBe('2026-01-02T03:04:05.678Z');
    expect(first.summary).toBe('line one\nline two, with "quotes"\r\nand a CR');
    // CSV injection: a cell starting like a formula is kept as text.
    expect(exported.find((r) => r.action === 'create')!.summary).toBe("'-2 + 3");
  });

  it("exports only the caller's tenant, with every filter applied", async () => {
    const [mine, theirs] = [await freshTenant(), await freshTenant()];
    const seed = (tenantId: number) =>
      insertAuditRows(tenantId, [
        {
          action: 'grant',
          target_type: 'role',
          target_id: '7',
          actor_id: 11,
          summary: 'alpha',
          created_at: '2026-03-01T00:00:00Z',
        },
        {
          action: 'grant',
          target_type: 'user',
          target_id: '8',
          actor_id: 12,
          summary: 'beta',
          created_at: '2026-03-02T00:00:00Z',
        },
        {
          action: 'revoke',
          target_type: 'role',
          target_id: '7',
          actor_id: 12,
          summary: 'gamma',
          created_at: '2026-03-03T00:00:00Z',
        },
        {
          action: 'revoke',
          target_type: 'user',
          target_id: '9',
          actor_id: 11,
          actor_name: 'keyholder',
          summary: 'delta',
          created_at: '2026-03-04T00:00:00Z',
        },
      ]);
    await seed(mine.id);
    await seed(theirs.id);
    for (const query of [
      '',
      '?action=grant',
      '?target_type=role',
      '?target_id=7',
      '?actor_id=12',
      '?keyword=amm',
      '?keyword=keyhold',
      '?start_time=2026-03-02T00:00:00Z&end_time=2026-03-03T00:00:00Z',
      '?action=revoke&target_type=user',
    ]) {
      const { records } = await fetchCsv(exportUrl(query), mine.token);
      const listed = (await audit(mine.token, `${query || '?'}&page_size=100`)).body.data.list;
      const exportedIds = records.slice(1).map((r) => Number(r[0]));
      expect(exportedIds, query).toEqual(listed.map((r: any) => r.id));
      expect(csvObjects(records).every((r) => r.actor_name !== undefined)).toBe(true);
    }
    const all = await fetchCsv(exportUrl(), mine.token);
    const { rows } = await sql<{ id: number }>`SELECT id::int AS id FROM audit_business_logs
      WHERE tenant_id = ${theirs.id}`.execute(db());
    const exported = new Set(all.records.slice(1).map((r) => Number(r[0])));
    expect(rows.filter((r) => exported.has(r.id))).toEqual([]);
  });
});
