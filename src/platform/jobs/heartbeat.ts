import { sql, type Kysely } from 'kysely';

/** Records a job round in mon_job_heartbeats: `ok`, or `error` with the message. */
export async function reportHeartbeat(
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  db: Kysely<{}>,
  beat: { name: string; intervalMs: number; ok: boolean; message: string | null },
): Promise<void> {
  await sql`
    INSERT INTO mon_job_heartbeats (name, last_run_at, interval_seconds, status, message)
    VALUES (${beat.name}, now(), ${Math.max(1, Math.round(beat.intervalMs / 1000))}, ${beat.ok ? 'ok' : 'error'}, ${beat.message})
    ON CONFLICT (name) DO UPDATE SET
      last_run_at = EXCLUDED.last_run_at, interval_seconds = EXCLUDED.interval_seconds,
      status = EXCLUDED.status, message = EXCLUDED.message`.execute(db);
}
