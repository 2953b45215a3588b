import type { MonitoredJob } from '../monitor.ports.js';
import type { MonitorDb } from '../monitor.tables.js';

export interface JobHeartbeat {
  name: string;
  last_run_at: string | null;
  interval_seconds: number;
  status: 'ok' | 'error' | 'stale';
  message: string | null;
}

/** A job that has not reported for more than this many intervals is stale. */
const STALE_AFTER_INTERVALS = 2;

export const NEVER_REPORTED = 'never reported';

/**
 * Every job of the catalogue with its last heartbeat, plus any row of a job no module declares
 * today (a job since removed or turned off): `stale` when the last run is more than twice the
 * interval ago, or when a declared job never reported (`last_run_at` null).
 */
export async function jobHeartbeats(
  db: MonitorDb,
  catalogue: readonly MonitoredJob[],
  now: Date,
): Promise<JobHeartbeat[]> {
  const rows = await db.selectFrom('mon_job_heartbeats').selectAll().orderBy('name').execute();
  const byName = new Map(rows.map((row) => [row.name, row]));
  const names = [
    ...catalogue.map((job) => job.name),
    ...rows.map((row) => row.name).filter((name) => !catalogue.some((job) => job.name === name)),
  ];
  return names.map((name) => {
    const row = byName.get(name);
    if (!row) {
      const job = catalogue.find((j) => j.name === name)!;
      return {
        name,
        last_run_at: null,
        interval_seconds: job.intervalSeconds,
        status: 'stale',
        message: NEVER_REPORTED,
      };
    }
    const lastRun = new Date(row.last_run_at);
    const stale =
      now.getTime() - lastRun.getTime() > STALE_AFTER_INTERVALS * row.interval_seconds * 1000;
    return {
      name,
      last_run_at: lastRun.toISOString(),
      interval_seconds: row.interval_seconds,
      status: stale ? 'stale' : row.status,
      message: row.message,
    };
  });
}
