import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { JobDeclaration, JobSpec } from '../../platform/jobs/catalogue.js';
import { declaredJob } from '../../platform/jobs/catalogue.js';
import type { Settings } from '../../config/settings.js';
import type { FilesDb } from './files.repo.js';
import type { FileStorage } from './storage/storage.js';

/** The files service's jobs, as its module declares them. */
export const FILES_JOBS = {
  orphanSweep: {
    name: 'files.orphan_sweep',
    intervalSetting: 'UPLOAD_ORPHAN_SWEEP_INTERVAL',
    intervalMs: (s) => s.files.orphanSweepIntervalMs,
    enabled: () => true,
  },
} satisfies Record<string, JobDeclaration>;

/** One sweep's batch: keys looked up and removed together under the lock. */
const BATCH = 500;
const SWEEP_LOCK_KEY = 727_105;

export interface OrphanSweepOptions {
  db: FilesDb;
  storage: FileStorage;
  logger: Logger;
  /** UPLOAD_ORPHAN_GRACE: objects younger than this are left alone (an upload finishing). */
  graceMs: number;
  now?: () => number;
}

/**
 * Removes stored objects no row names: an upload cut off between its bytes and its row (a crash,
 * a lost connection), or a delete whose object removal failed after the row went. Objects
 * younger than the grace are never touched, so an upload in progress is safe. Each batch runs
 * under a transaction-level advisory lock: one replica sweeps, another finding it held skips
 * the round. Returns the number removed, or null when skipped.
 */
export async function sweepOrphans(o: OrphanSweepOptions): Promise<number | null> {
  const before = new Date((o.now ?? Date.now)() - o.graceMs);
  let removed = 0;
  let batch: string[] = [];
  const flush = async (): Promise<boolean> => {
    const keys = batch;
    batch = [];
    return o.db.transaction().execute(async (trx) => {
      const lock = await sql<{
        ok: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) AS ok`.execute(trx);
      if (!lock.rows[0]?.ok) return false;
      const known = new Set(
        (
          await trx
            .selectFrom('files_objects')
            .select('storage_key')
            .where('storage_key', 'in', keys)
            .execute()
        ).map((r) => r.storage_key),
      );
      for (const key of keys.filter((k) => !known.has(k))) {
        await o.storage.delete(key);
        removed += 1;
        o.logger.info({ key }, 'orphaned upload removed');
      }
      return true;
    });
  };
  for await (const key of o.storage.keysBefore(before)) {
    batch.push(key);
    if (batch.length === BATCH && !(await flush())) return null;
  }
  if (batch.length > 0 && !(await flush())) return null;
  return removed;
}

/** The orphan sweep, every UPLOAD_ORPHAN_SWEEP_INTERVAL (default 1 h). */
export function filesJobs(settings: Settings, o: Omit<OrphanSweepOptions, 'graceMs'>): JobSpec[] {
  return [
    {
      ...declaredJob(FILES_JOBS.orphanSweep, settings),
      kind: 'periodic',
      replicaSafety: 'advisory-lock',
      round: async () => {
        const removed = await sweepOrphans({ ...o, graceMs: settings.files.orphanGraceMs });
        return removed === null ? 'skipped' : undefined;
      },
    },
  ];
}
