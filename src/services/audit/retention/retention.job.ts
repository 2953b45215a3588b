import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { reportHeartbeat } from '../../../platform/jobs/heartbeat.js';
import { logSurvived } from '../../../platform/dependency-errors.js';

export const RETENTION_JOB = 'audit.log_retention';
// Any constant works; it only has to be the same in every replica.
const RETENTION_LOCK_KEY = 727_004;
/** Rows deleted per statement, so a large backlog never holds long locks. */
const BATCH = 5000;
/** Pruned tables: operation and login logs. Business audit logs are never pruned automatically. */
const TABLES = ['audit_operation_logs', 'audit_login_logs'] as const;

export interface RetentionOptions {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  db: Kysely<{}>;
  logger: Logger;
  /** AUDIT_LOG_RETENTION_DAYS (> 0 to run). */
  days: number;
  /** The round interval (AUDIT_RETENTION_INTERVAL, default 1 day), reported with the heartbeat. */
  intervalMs: number;
}

/**
 * One retention round across all tenants: under a transaction-level advisory lock so one replica
 * runs it, deleting in batches; reports the `audit.log_retention` heartbeat (error on failure).
 * Returns the rows deleted per table, or null when another replica holds the lock.
 */
export async function runRetention(o: RetentionOptions): Promise<Record<string, number> | null> {
  try {
    const deleted = await o.db.transaction().execute(async (trx) => {
      const lock = await sql<{
        ok: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) AS ok`.execute(trx);
      if (!lock.rows[0]?.ok) return null;
      const counts: Record<string, number> = {};
      for (const table of TABLES) {
        counts[table] = 0;
        for (;;) {
          const result = await sql`
            DELETE FROM ${sql.table(table)} WHERE id IN (
              SELECT id FROM ${sql.table(table)}
              WHERE created_at < now() - make_interval(days => ${o.days})
              LIMIT ${BATCH})`.execute(trx);
          const n = Number(result.numAffectedRows ?? 0);
          counts[table] += n;
          if (n < BATCH) break;
        }
      }
      return counts;
    });
    if (deleted) {
      await reportHeartbeat(o.db, {
        name: RETENTION_JOB,
        intervalMs: o.intervalMs,
        ok: true,
        message: JSON.stringify(deleted),
      });
      o.logger.info({ job: RETENTION_JOB, deleted }, 'log retention round done');
    }
    return deleted;
  } catch (err) {
    const message = (err as Error).message;
    logSurvived(o.logger, err, { job: RETENTION_JOB }, 'log retention round failed');
    await reportHeartbeat(o.db, {
      name: RETENTION_JOB,
      intervalMs: o.intervalMs,
      ok: false,
      message,
    }).catch(() => undefined);
    throw err;
  }
}
