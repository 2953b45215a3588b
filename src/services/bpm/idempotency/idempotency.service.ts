import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { BpmDb } from '../bpm.tables.js';
import {
  completeKey,
  findKey,
  PENDING_STATUS,
  purgeExpiredKeys,
  releaseKey,
  reserveKey,
  type KeyRef,
} from './idempotency.repo.js';

/** A key lives this long after its first use; afterwards it is free again. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyOptions {
  db: BpmDb;
  /** Injected clock (default Date.now). */
  now?: () => number;
  /** How long a request waits for another one holding the same key before a 409 (default 5 000 ms). */
  waitMs?: number;
  /** Polling interval while waiting (default 25 ms). */
  pollMs?: number;
  /**
   * A key still pending after this long belongs to a request that died with its process; a new
   * request may take it over (default 60 000 ms, far above any action's run time).
   */
  abandonAfterMs?: number;
}

/** The key this request holds until its answer is stored or released. */
export interface Reservation extends KeyRef {
  reservedAt: Date;
}

export type Outcome =
  { kind: 'run'; reservation: Reservation } | { kind: 'replay'; statusCode: number; body: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Idempotency-Key rules (API.md): the same key from the same user of the same tenant with the
 * same request replays the stored answer without acting again; with another request it is a
 * 409. A key is reserved before the action runs, so two concurrent requests never both act:
 * the second waits for the first one's answer and replays it.
 */
export class IdempotencyService {
  private readonly now: () => number;
  private readonly waitMs: number;
  private readonly pollMs: number;
  private readonly abandonAfterMs: number;

  constructor(private readonly o: IdempotencyOptions) {
    this.now = o.now ?? Date.now;
    this.waitMs = o.waitMs ?? 5_000;
    this.pollMs = o.pollMs ?? 25;
    this.abandonAfterMs = o.abandonAfterMs ?? 60_000;
  }

  /** Reserves `ref` for a request with fingerprint `requestHash`, or answers with the stored response. */
  async begin(ref: KeyRef, requestHash: string): Promise<Outcome> {
    // Counted in polls rather than by the clock, so a fake clock cannot make this spin.
    for (let polls = Math.ceil(this.waitMs / this.pollMs); ; polls--) {
      const at = new Date(this.now());
      const expiredBefore = new Date(at.getTime() - KEY_TTL_MS);
      const abandonedBefore = new Date(at.getTime() - this.abandonAfterMs);
      if (await reserveKey(this.o.db, ref, requestHash, at, expiredBefore, abandonedBefore)) {
        await purgeExpiredKeys(this.o.db, ref.tenantId, ref.userId, expiredBefore);
        return { kind: 'run', reservation: { ...ref, reservedAt: at } };
      }
      const stored = await findKey(this.o.db, ref);
      if (stored && stored.request_hash !== requestHash) {
        throw new AppError(
          ERROR_CODES.CONFLICT,
          'this Idempotency-Key was already used for a different request',
          { idempotency_key: ref.key },
        );
      }
      if (stored && stored.status_code !== PENDING_STATUS) {
        return { kind: 'replay', statusCode: stored.status_code, body: stored.response as string };
      }
      // Pending (or released a moment ago): wait for its answer, then look again.
      if (polls <= 0) {
        throw new AppError(
          ERROR_CODES.CONFLICT,
          'a request with this Idempotency-Key is in progress',
          { idempotency_key: ref.key },
        );
      }
      await sleep(this.pollMs);
    }
  }

  /** Stores the answer (2xx and 4xx only: a 5xx releases the key so the client can retry). */
  async finish(reservation: Reservation, statusCode: number, body: string): Promise<void> {
    if (statusCode >= 500 || statusCode < 200) return this.release(reservation);
    await completeKey(this.o.db, reservation, reservation.reservedAt, statusCode, body);
  }

  async release(reservation: Reservation): Promise<void> {
    await releaseKey(this.o.db, reservation, reservation.reservedAt);
  }
}
