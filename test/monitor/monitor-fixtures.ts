import { sql } from 'kysely';
import { createUserWith } from '../bpm/fixtures.js';
import type { TestPlatform } from '../helpers/platform.js';

/** A platform administrator holding only `codes` (no API makes one: set in the database). */
export async function platformAdminWith(platform: TestPlatform, codes: string[]) {
  const user = await createUserWith(platform, codes);
  await sql`UPDATE iam_users SET is_platform_admin = true WHERE id = ${user.id}`.execute(
    platform.kernel.database.db,
  );
  await platform.kernel.cache.del(`iam:user:${user.id}`);
  const session = await platform.login(user.username, user.password);
  return { ...user, token: session.access_token };
}

/** Inserts metric samples at known times. */
export async function insertSamples(
  platform: TestPlatform,
  rows: { metric: string; service?: string; value: number; at: Date }[],
) {
  for (const row of rows) {
    await sql`INSERT INTO mon_metric_samples (metric, service, value, sampled_at)
      VALUES (${row.metric}, ${row.service ?? ''}, ${row.value}, ${row.at})`.execute(
      platform.kernel.database.db,
    );
  }
}

/** Writes a job heartbeat row as the lifecycle would, at a known time. */
export async function writeHeartbeat(
  platform: TestPlatform,
  beat: {
    name: string;
    at: Date;
    intervalSeconds: number;
    status: 'ok' | 'error';
    message?: string;
  },
) {
  await sql`INSERT INTO mon_job_heartbeats (name, last_run_at, interval_seconds, status, message)
    VALUES (${beat.name}, ${beat.at}, ${beat.intervalSeconds}, ${beat.status}, ${beat.message ?? null})
    ON CONFLICT (name) DO UPDATE SET last_run_at = EXCLUDED.last_run_at,
      interval_seconds = EXCLUDED.interval_seconds, status = EXCLUDED.status,
      message = EXCLUDED.message`.execute(platform.kernel.database.db);
}
