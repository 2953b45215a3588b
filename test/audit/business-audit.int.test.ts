import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

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
  return {
    id: res.body.data.id as number,
    token: (await platform.login('chief', 'Chief-Passw0rd!', code)).access_token,
  };
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
            assignee: { type: 'users', userIds: [1] },
            mode: 'or',
            child: null,
          },
        },
      },
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${def.body.data.id}/publish`, {
      token: tenant.token,
    });
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

describe('CSV export', () => {
  it('streams UTF-8 with a BOM and a header row, at most 50 000 rows', async () => {
    const tenant = await freshTenant();
    await sql`INSERT INTO audit_business_logs
        (tenant_id, seq, actor_id, actor_name, action, target_type, target_id, before, after, summary, prev_hash, hash, created_at)
      SELECT ${tenant.id}, 1000 + g, 1, 'loader', 'update', 'role', g::text, NULL, '{"n":1}'::jsonb, 'bulk ' || g, '', '', now()
      FROM generate_series(1, 50010) AS g`.execute(db());
    const res = await fetch(`${platform.url}/api/v1/logs/audit/export?action=update`, {
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trimEnd().split('\n');
    expect(lines[0]).toBe(
      'id,created_at,actor_id,actor_name,action,target_type,target_id,summary,before,after',
    );
    expect(lines.length - 1).toBe(50_000);
  });
});
