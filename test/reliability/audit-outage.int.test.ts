import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

// RELIABILITY matrix row 13: the operation log never affects a request. With its store
// refusing every write, or with the broker unreachable, an administrator's changes and reads
// still answer 200 at once; the entries the store refused are dropped and counted, and the
// business audit (written in each change's own transaction) still has every change.

const platforms: TestPlatform[] = [];
afterAll(() => Promise.all(platforms.map((p) => p.close())));

/** Well under the recorder's 2 s write timeout: a request never waits for the log. */
const PROMPT_MS = 1500;

/**
 * An administrator's round of changes and reads, each answered 200 within PROMPT_MS; returns
 * the role it created and changed, and how many requests it sent.
 */
async function adminRound(platform: TestPlatform): Promise<{ roleId: number; requests: number }> {
  const token = await platform.adminToken();
  let requests = 0;
  const timed = async (method: string, path: string, body?: unknown) => {
    requests++;
    const started = Date.now();
    const res = await platform.call(method, path, { token, body });
    expect({ method, path, status: res.status, code: res.body.code }).toEqual({
      method,
      path,
      status: 200,
      code: 200,
    });
    expect(Date.now() - started, `${method} ${path}`).toBeLessThan(PROMPT_MS);
    return res.body.data;
  };
  const role = await timed('POST', '/api/v1/roles', {
    code: uniq('outage'),
    name: 'Outage role',
    permissions: [],
  });
  await timed('PUT', `/api/v1/roles/${role.id}`, { name: 'Outage role, renamed' });
  await timed('POST', '/api/v1/users', {
    username: uniq('outage'),
    password: 'Outage-Passw0rd!',
    role_ids: [role.id],
  });
  const dept = await timed('POST', '/api/v1/departments', { name: uniq('outage') });
  await timed('DELETE', `/api/v1/departments/${dept.id}`);
  for (const path of [
    '/api/v1/me',
    '/api/v1/users?page_size=10',
    `/api/v1/roles/${role.id}`,
    '/api/v1/operation-logs?page_size=10',
    '/api/v1/login-logs?page_size=10',
    `/api/v1/logs/audit?target_type=role&target_id=${role.id}`,
  ]) {
    await timed('GET', path);
  }
  return { roleId: role.id as number, requests };
}

/** The business-audit actions recorded for a role, oldest first. */
async function auditedActions(platform: TestPlatform, roleId: number) {
  const rows = await sql<{ action: string }>`SELECT action FROM audit_business_logs
    WHERE target_type = 'role' AND target_id = ${String(roleId)} ORDER BY seq`.execute(
    platform.kernel.database.db,
  );
  return rows.rows.map((r) => r.action);
}

/** The operation-log entries every service of the platform dropped for `reason`. */
async function dropped(platform: TestPlatform, reason: string) {
  let total = 0;
  for (const base of Object.values(platform.serviceUrls)) {
    const text = await (await fetch(`${base}/metrics`)).text();
    for (const line of text.split('\n')) {
      if (line.startsWith('audit_operation_logs_dropped_total') && line.includes(reason))
        total += Number(line.split(' ').pop());
    }
  }
  return total;
}

describe('the operation-log store refusing every write', () => {
  it('leaves admin changes and reads answering at once; entries are dropped and counted', async () => {
    const platform = await startTestPlatform();
    platforms.push(platform);
    const db = platform.kernel.database.db;
    await platform.adminToken();
    const before = await dropped(platform, 'write_failed');
    await sql`CREATE FUNCTION refuse_operation_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'operation-log store refused'; END $$`.execute(db);
    await sql`CREATE TRIGGER refuse_operation_log BEFORE INSERT ON audit_operation_logs
      FOR EACH ROW EXECUTE FUNCTION refuse_operation_log()`.execute(db);
    let roleId: number;
    try {
      const round = await adminRound(platform);
      roleId = round.roleId;
      // The recorder writes once a second: wait for the batches holding the round's entries,
      // one per request, each dropped and counted.
      const deadline = Date.now() + 5000;
      const count = async () => (await dropped(platform, 'write_failed')) - before;
      while ((await count()) < round.requests && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await count()).toBeGreaterThanOrEqual(round.requests);
      const logged = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_operation_logs
        WHERE path LIKE ${`/api/v1/roles/${roleId}%`}`.execute(db);
      expect(logged.rows[0]!.n).toBe(0);
    } finally {
      await sql`DROP TRIGGER refuse_operation_log ON audit_operation_logs`.execute(db);
    }
    // The business audit is not the operation log: both role changes are in it.
    expect(await auditedActions(platform, roleId)).toEqual(['create', 'update']);
  });
});

describe('the broker unreachable', () => {
  it('leaves admin changes and reads answering at once, each in the business audit', async () => {
    // Nothing listens on this port: every publish fails or waits, as in a broker outage.
    const platform = await startTestPlatform({
      NATS_URL: `nats://127.0.0.1:${await freePort()}`,
      NATS_STREAM: uniq('OFFLINE'),
    });
    platforms.push(platform);
    const { roleId } = await adminRound(platform);
    expect(await auditedActions(platform, roleId)).toEqual(['create', 'update']);
  });
});
