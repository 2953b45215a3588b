import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { request } from 'undici';
import { callbackSuffix } from '../../../config/settings.js';
import type { BpmDb } from '../bpm.tables.js';

export interface OutboxOptions {
  db: BpmDb;
  logger: Logger;
  /** BPM_CALLBACK_<BIZTYPE> targets by suffix. */
  callbacks: Record<string, string>;
  /** Sent as X-Internal-Token on callbacks when set (BPM_CALLBACK_TOKEN). */
  callbackToken?: string | undefined;
  notify: { enabled: boolean; base?: string | undefined; token?: string | undefined };
  /** BPM_OUTBOX_MAX_ATTEMPTS, default 10: then the row is `dead`. */
  maxAttempts: number;
  /** BPM_OUTBOX_BACKOFF_BASE, default 1 s: attempt n waits base * 2^(n-1), jittered, at most 1 h. */
  backoffBaseMs: number;
  /** BPM_OUTBOX_LEASE, default 30 s: a claim older than this is recovered by another worker. */
  leaseMs: number;
  /** BPM_OUTBOX_TIMEOUT, default 10 s per delivery. */
  timeoutMs: number;
  batchSize?: number;
}

interface Claimed {
  id: number;
  kind: 'callback' | 'notification';
  event_id: string;
  target: string;
  payload: Record<string, unknown>;
  attempts: number;
  lease_version: number;
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
 * overwrite the outcome of the one that recovered the row.
 */
export class OutboxWorker {
  readonly owner = `outbox-${randomUUID()}`;

  constructor(private readonly o: OutboxOptions) {}

  /** One round: claim a batch and deliver it. Returns how many rows were claimed. */
  async runOnce(): Promise<number> {
    const rows = await this.claim();
    await Promise.all(rows.map((row) => this.deliver(row)));
    return rows.length;
  }

  private async claim(): Promise<Claimed[]> {
    const result = await sql<Claimed>`
      UPDATE bpm_outbox SET
        lease_owner = ${this.owner},
        lease_version = lease_version + 1,
        lease_expires_at = now() + make_interval(secs => ${this.o.leaseMs / 1000}),
        attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM bpm_outbox
        WHERE status = 'pending' AND next_attempt_at <= now()
          AND (lease_expires_at IS NULL OR lease_expires_at < now())
        ORDER BY next_attempt_at
        LIMIT ${this.o.batchSize ?? 20}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, event_id, target, payload, attempts, lease_version`.execute(this.o.db);
    return result.rows;
  }

  private targetOf(row: Claimed): { url: string; headers: Record<string, string> } | undefined {
    if (row.kind === 'callback') {
      const url = this.o.callbacks[callbackSuffix(row.target)];
      if (!url) return undefined;
      return {
        url,
        headers: this.o.callbackToken ? { 'x-internal-token': this.o.callbackToken } : {},
      };
    }
    if (!this.o.notify.enabled || !this.o.notify.base) return undefined;
    return { url: this.o.notify.base, headers: { authorization: `Bearer ${this.o.notify.token}` } };
  }

  private async deliver(row: Claimed): Promise<void> {
    const target = this.targetOf(row);
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
        body: JSON.stringify(row.payload),
        headersTimeout: this.o.timeoutMs,
        bodyTimeout: this.o.timeoutMs,
      });
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode >= 300)
        error = `HTTP ${response.statusCode}`;
    } catch (err) {
      error = (err as Error).message;
    }
    if (error === undefined) {
      await this.finish(row, sql`status = 'delivered', delivered_at = now(), last_error = NULL`);
      return;
    }
    if (row.attempts >= this.o.maxAttempts) {
      this.o.logger.error(
        {
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
  private async finish(row: Claimed, changes: ReturnType<typeof sql>): Promise<void> {
    await sql`
      UPDATE bpm_outbox SET ${changes}, lease_owner = NULL, lease_expires_at = NULL
      WHERE id = ${row.id} AND lease_owner = ${this.owner} AND lease_version = ${row.lease_version}`.execute(
      this.o.db,
    );
  }
}
