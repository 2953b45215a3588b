import { sql } from 'kysely';
import type { MonitorDb } from '../monitor.tables.js';

export interface SampleRow {
  metric: string;
  /** '' for a platform-wide metric. */
  service: string;
  value: number;
}

/** How long samples are kept. */
export const SAMPLE_RETENTION_MS = 7 * 24 * 3600 * 1000;
// Any constant works; it only has to be the same in every replica.
export const SAMPLER_LOCK_KEY = 727_027;

/** Takes the sampler's round lock for the transaction; false when another replica holds it. */
export async function tryRoundLock(trx: MonitorDb): Promise<boolean> {
  const lock = await sql<{
    ok: boolean;
  }>`SELECT pg_try_advisory_xact_lock(${SAMPLER_LOCK_KEY}) AS ok`.execute(trx);
  return lock.rows[0]?.ok === true;
}

export async function lastRoundAt(trx: MonitorDb): Promise<Date | undefined> {
  const row = await trx
    .selectFrom('mon_sampler_state')
    .select('last_round_at')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row ? new Date(row.last_round_at) : undefined;
}

export async function recordRound(trx: MonitorDb, at: Date): Promise<void> {
  await trx
    .insertInto('mon_sampler_state')
    .values({ id: 1, last_round_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ last_round_at: at }))
    .execute();
}

export function counterStates(trx: MonitorDb) {
  return trx.selectFrom('mon_counter_state').selectAll().execute();
}

export async function saveCounterState(
  trx: MonitorDb,
  state: { service: string; requests: number; errors: number; scraped_at: Date },
): Promise<void> {
  await trx
    .insertInto('mon_counter_state')
    .values(state)
    .onConflict((oc) =>
      oc.column('service').doUpdateSet({
        requests: state.requests,
        errors: state.errors,
        scraped_at: state.scraped_at,
      }),
    )
    .execute();
}

export async function insertSamples(trx: MonitorDb, at: Date, rows: SampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('mon_metric_samples')
    .values(rows.map((row) => ({ ...row, sampled_at: at })))
    .execute();
}

/** Deletes the samples older than the retention; returns how many. */
export async function pruneSamples(trx: MonitorDb, at: Date): Promise<number> {
  const result = await trx
    .deleteFrom('mon_metric_samples')
    .where('sampled_at', '<', new Date(at.getTime() - SAMPLE_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Samples aggregated into buckets of `bucketSeconds` over (from, to]; avg and max per bucket. */
export async function bucketedSamples(
  db: MonitorDb,
  o: { from: Date; to: Date; bucketSeconds: number; metric?: string | undefined },
) {
  const bucket = sql<number>`floor(extract(epoch from sampled_at) / ${o.bucketSeconds}) * ${o.bucketSeconds}`;
  let query = db
    .selectFrom('mon_metric_samples')
    .select([
      'metric',
      'service',
      bucket.as('bucket'),
      sql<number>`avg(value)`.as('avg'),
      sql<number>`max(value)`.as('max'),
      sql<number>`count(*)`.as('samples'),
    ])
    .where('sampled_at', '>', o.from)
    .where('sampled_at', '<=', o.to);
  if (o.metric !== undefined) query = query.where('metric', '=', o.metric);
  return query
    .groupBy(['metric', 'service', sql`3`])
    .orderBy('metric')
    .orderBy('service')
    .orderBy(sql`3`)
    .execute();
}
