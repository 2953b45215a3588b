import type { Failpoints } from '../failpoints.js';
import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { request } from 'undici';

/**
 * The columns an outbox table has (see bpm_outbox in 0003_bpm.sql, audit_notify_outbox in
 * 0016_new_device_notices.sql): `kind`, `event_id` (the Idempotency-Key), `target`, `payload`,
 * `status`, `attempts`, `next_attempt_at`, the lease (`lease_owner`, `lease_version`,
 * `lease_expires_at`), `last_error` and `delivered_at`.
 */
export interface OutboxRow {
  id: number;
  kind: string;
  event_id: string;
  target: string;
  payload: Record<string, unknown>;
  attempts: number;
  lease_version: number;
}

/** Where a row goes; undefined while its destination is not configured (the row waits). */
export type OutboxTarget = { url: string; headers: Record<string, string> } | undefined;

export interface OutboxDeliveryTuning {
  /** Then the row is `dead` (BPM_OUTBOX_MAX_ATTEMPTS, default 10). */
  maxAttempts: number;
  /** Attempt n waits base * 2^(n-1), jittered, at most 1 h (BPM_OUTBOX_BACKOFF_BASE, 1 s). */
  backoffBaseMs: number;
  /** A claim older than this is recovered by another worker (BPM_OUTBOX_LEASE, 30 s). */
  leaseMs: number;
  /** Per delivery (BPM_OUTBOX_TIMEOUT, 10 s). */
  timeoutMs: number;
  /** Delivered rows older than this are deleted, about once an hour (BPM_OUTBOX_KEEP_DELIVERED, 7 days). */
  keepDeliveredMs: number;
  batchSize?: number;
}

export interface OutboxDeliveryOptions extends OutboxDeliveryTuning {
  db: QueryExecutorProvider;
  /** The outbox table; a fixed name from code, never input. */
  table: 'bpm_outbox' | 'audit_notify_outbox';
  logger: Logger;
  targetOf(row: OutboxRow): OutboxTarget;
  /**
   * Rows delivered in this process instead of over HTTP (the in-app inbox copy): returns the
   * delivery for such a row, undefined for a row that goes to `targetOf`. A throw is a failed
   * attempt, retried like an HTTP failure. Unset: every row goes over HTTP.
   */
  deliverLocally?(row: OutboxRow): Promise<void> | undefined;
  /** The body posted for a row (the current text of a notice); default the stored payload. */
  payloadOf?(row: OutboxRow): Promise<Record<string, unknown>>;
  /** `after_2xx_before_mark`: the receiver took the row, which is not marked delivered yet. */
  failpoints?: Failpoints | undefined;
  /** The clock that paces pruning (milliseconds); default Date.now. */
  now?: () => number;
}

const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 1000;

/** The notification API as BPM and the new-device notice post to it (Bearer token). */
export function notifyTarget(notify: {
  enabled: boolean;
  base?: string | undefined;
  token?: string | undefined;
}): OutboxTarget {
  // Skipped silently until NOTIFY_API_BASE and a token are set (the spec's rule).
  if (!notify.enabled || !notify.base) return undefined;
  return { url: notify.base, headers: { authorization: `Bearer ${notify.token}` } };
}

const MAX_BACKOFF_MS = 3_600_000;

/** Exponential backoff with jitter: half fixed, half random, so retries of many rows spread out. */
export function backoffMs(attempt: number, baseMs: number, random = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * Delivers outbox rows at least once: claims them with FOR UPDATE SKIP LOCKED and a lease (so
 * replicas never take the same row), posts them with an Idempotency-Key (the event id), and
 * completes them fenced by owner and lease version, so a worker paused past its lease cannot
 * overwrite the outcome of the one that recovered the row. Shared by every service's outbox.
 */
export class OutboxDelivery {
  readonly owner = `outbox-${randomUUID()}`;
  private lastPrune = -Infinity;

  constructor(private readonly o: OutboxDeliveryOptions) {}

  /**
   * One round: claim a batch and deliver it, and about once an hour delete the delivered rows
   * past their keeping time. Returns how many rows were claimed.
   */
  async runOnce(): Promise<number> {
    const rows = await this.claim();
    await Promise.all(rows.map((row) => this.deliver(row)));
    const now = (this.o.now ?? Date.now)();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.prune();
    }
    return rows.length;
  }

  /**
   * Deletes delivered rows older than `keepDeliveredMs`, a bounded batch at a time; pending and
   * dead rows are never touched. Returns how many went.
   */
  async prune(): Promise<number> {
    const table = sql.table(this.o.table);
    let deleted = 0;
    for (;;) {
      const result = await sql`
        DELETE FROM ${table} WHERE id IN (
          SELECT id FROM ${table}
          WHERE status = 'delivered'
            AND delivered_at < now() - make_interval(secs => ${this.o.keepDeliveredMs / 1000})
          LIMIT ${PRUNE_BATCH})`.execute(this.o.db);
      const count = Number(result.numAffectedRows ?? 0);
      deleted += count;
      if (count < PRUNE_BATCH) break;
    }
    if (deleted > 0) this.o.logger.info({ outbox: this.o.table, deleted }, 'outbox pruned');
    return deleted;
  }

  private async claim(): Promise<OutboxRow[]> {
    const table = sql.table(this.o.table);
    const result = await sql<OutboxRow>`
      UPDATE ${table} SET
        lease_owner = ${this.owner},
        lease_version = lease_version + 1,
        lease_expires_at = now() + make_interval(secs => ${this.o.leaseMs / 1000}),
        attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM ${table}
        WHERE status = 'pending' AND next_attempt_at <= now()
          AND (lease_expires_at IS NULL OR lease_expires_at < now())
        ORDER BY next_attempt_at
        LIMIT ${this.o.batchSize ?? 20}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, event_id, target, payload, attempts, lease_version`.execute(this.o.db);
    return result.rows;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const local = this.o.deliverLocally?.(row);
    if (local) {
      let failure: string | undefined;
      try {
        await local;
      } catch (err) {
        failure = (err as Error).message;
      }
      await this.settle(row, failure);
      return;
    }
    const target = this.o.targetOf(row);
    if (!target) {
      // Not configured yet: keep the row, do not count the attempt, look again later.
      await this.finish(
        row,
        sql`attempts = attempts - 1, next_attempt_at = now() + make_interval(secs => ${(this.o.backoffBaseMs / 1000) * 30})`,
      );
      return;
    }
    let error: string | undefined;
    try {
      const response = await request(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': row.event_id,
          ...target.headers,
        },
        body: JSON.stringify(this.o.payloadOf ? await this.o.payloadOf(row) : row.payload),
        headersTimeout: this.o.timeoutMs,
        bodyTimeout: this.o.timeoutMs,
      });
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode >= 300)
        error = `HTTP ${response.statusCode}`;
      else await this.o.failpoints?.hit('after_2xx_before_mark');
    } catch (err) {
      error = (err as Error).message;
    }
    await this.settle(row, error);
  }

  /** Records an attempt's outcome: delivered, retried later with backoff, or dead. */
  private async settle(row: OutboxRow, error: string | undefined): Promise<void> {
    if (error === undefined) {
      await this.finish(row, sql`status = 'delivered', delivered_at = now(), last_error = NULL`);
      return;
    }
    if (row.attempts >= this.o.maxAttempts) {
      this.o.logger.error(
        {
          outbox: this.o.table,
          outbox_id: row.id,
          event_id: row.event_id,
          kind: row.kind,
          attempts: row.attempts,
          error,
        },
        'outbox delivery exhausted',
      );
      await this.finish(row, sql`status = 'dead', last_error = ${error}`);
      return;
    }
    const delay = backoffMs(row.attempts, this.o.backoffBaseMs);
    this.o.logger.warn(
      {
        outbox: this.o.table,
        outbox_id: row.id,
        event_id: row.event_id,
        attempts: row.attempts,
        retry_in_ms: delay,
        error,
      },
      'outbox delivery failed',
    );
    await this.finish(
      row,
      sql`last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${delay / 1000})`,
    );
  }

  /** Fenced completion: only the current lease holder's outcome is written. */
  private async finish(row: OutboxRow, changes: ReturnType<typeof sql>): Promise<void> {
    await sql`
      UPDATE ${sql.table(this.o.table)} SET ${changes}, lease_owner = NULL, lease_expires_at = NULL
      WHERE id = ${row.id} AND lease_owner = ${this.owner} AND lease_version = ${row.lease_version}`.execute(
      this.o.db,
    );
  }
}

/**
 * `<table>_rows{status}` on the service's `/metrics`, counted when scraped: `pending` is the
 * outbox's backlog, `dead` the rows given up after their last attempt (each one an event its
 * receiver never took: what an operator's alert watches, e.g. `bpm_outbox_rows{status="dead"} > 0`).
 */
export function registerOutboxGauge(
  registry: Registry,
  db: QueryExecutorProvider,
  table: 'bpm_outbox' | 'audit_notify_outbox',
): void {
  new Gauge({
    name: `${table}_rows`,
    help: `Rows of ${table} waiting for delivery (pending) or given up after the last attempt (dead)`,
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      try {
        const { rows } = await sql<{ status: string; n: number }>`
          SELECT status, count(*)::int AS n FROM ${sql.table(table)}
          WHERE status IN ('pending', 'dead') GROUP BY status`.execute(db);
        const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
        this.set({ status: 'pending' }, count('pending'));
        this.set({ status: 'dead' }, count('dead'));
      } catch {
        // The database is not answering: the last figures stand and the scrape still answers
        // (readiness reports the outage).
      }
    },
  });
}
