import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/logger.js';
import { runRetention } from '../../src/services/audit/retention/retention.job.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
const db = () => platform.kernel.database.db;

beforeAll(async () => {
  platform = await startTestPlatform({
    AUDIT_LOG_RETENTION_DAYS: '30',
    AUDIT_RETENTION_INTERVAL: '300ms',
  });
});
afterAll(() => platform?.close());

async function seed(tag: string, ageDays: number) {
  const at = sql`now() - make_interval(days => ${ageDays})`;
  await sql`INSERT INTO audit_operation_logs (tenant_id, module, action, method, path, status, latency_ms, request_id, created_at)
    VALUES (1, 'retention', 'GET /x', 'GET', ${'/api/v1/' + tag}, 200, 1, ${tag}, ${at})`.execute(
    db(),
  );
  await sql`INSERT INTO audit_login_logs (event_id, tenant_id, username, login_type, success, created_at)
    VALUES (${tag}, 1, ${tag}, 'password', true, ${at})`.execute(db());
  await sql`INSERT INTO audit_business_logs (tenant_id, seq, actor_id, actor_name, action, target_type, target_id, summary, prev_hash, hash, created_at)
    VALUES (1, ${900_000_000 + Math.floor(Math.random() * 1e8)}, 1, 'x', 'update', 'role', ${tag}, ${tag}, '', '', ${at})`.execute(
    db(),
  );
}

const count = async (table: string, column: string, tag: string) =>
  (
    await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${tag}`.execute(
      db(),
    )
  ).rows[0]!.n;

describe('log retention', () => {
  it('prunes operation and login logs older than N days, never business audit logs, and reports a heartbeat', async () => {
    const [old, recent] = [uniq('old'), uniq('recent')];
    await seed(old, 40);
    await seed(recent, 5);
    const deadline = Date.now() + 10_000;
    while ((await count('audit_operation_logs', 'request_id', old)) > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await count('audit_operation_logs', 'request_id', old)).toBe(0);
    expect(await count('audit_login_logs', 'event_id', old)).toBe(0);
    expect(await count('audit_operation_logs', 'request_id', recent)).toBe(1);
    expect(await count('audit_login_logs', 'event_id', recent)).toBe(1);
    expect(await count('audit_business_logs', 'target_id', old)).toBe(1);
    const beat = await sql<{ status: string; interval_seconds: number }>`
      SELECT status, interval_seconds FROM mon_job_heartbeats WHERE name = 'audit.log_retention'`.execute(
      db(),
    );
    expect(beat.rows[0]).toMatchObject({ status: 'ok', interval_seconds: 1 });
  });

  it('marks the heartbeat as an error when a round fails', async () => {
    await sql`CREATE OR REPLACE FUNCTION refuse_prune() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'prune refused'; END $$`.execute(db());
    await sql`CREATE TRIGGER refuse_prune BEFORE DELETE ON audit_login_logs FOR EACH ROW EXECUTE FUNCTION refuse_prune()`.execute(
      db(),
    );
    try {
      await seed(uniq('stuck'), 40);
      await expect(
        runRetention({
          db: db(),
          logger: createLogger('silent'),
          days: 30,
          intervalMs: 86_400_000,
        }),
      ).rejects.toThrow(/prune refused/);
      const beat = await sql<{ status: string; message: string }>`
        SELECT status, message FROM mon_job_heartbeats WHERE name = 'audit.log_retention'`.execute(
        db(),
      );
      expect(beat.rows[0]).toMatchObject({
        status: 'error',
        message: expect.stringMatching(/prune refused/),
      });
    } finally {
      await sql`DROP TRIGGER refuse_prune ON audit_login_logs`.execute(db());
    }
  });
});
