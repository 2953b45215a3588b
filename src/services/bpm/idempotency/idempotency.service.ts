import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { BpmDb } from '../bpm.tables.js';
import {
  COMMITTED_STATUS,
  completeCommittedKey,
  completeKey,
  findKey,
  markCommitted,
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
   * A key still pending after this long belongs to a request that died before changing
   * anything; a retry may take it over (default 4 000 ms). Safe however short: a request's
   * change commits only while the key is still its own (`fence`), so a slow request that lost
   * its key to a retry changes nothing and answers 409.
   */
  abandonAfterMs?: number;
}

/** The key this request holds until its answer is stored or released. */
export interface Reservation extends KeyRef {
  reservedAt: Date;
}

export type Outcome =
  | { kind: 'run'; reservation: Reservation }
  | { kind: 'replay'; statusCode: number; body: string }
  /** The change was made and committed, but its answer was never stored (its process died). */
  | { kind: 'committed' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Idempotency-Key rules (API.md): the same key from the same user of the same tenant with the
 * same request replays the stored answer without acting again; with another request it is a
 * 409. A key is reserved before the action runs, so two concurrent requests never both act:
 * the second waits for the first one's answer and replays it.
 */
export class IdempotencyService {
  /** The reservation of the request whose handler is running (see `run` and `fence`). */
  private readonly scope = new AsyncLocalStorage<Reservation>();
  /** Each request's reservation, by request object (the route hooks and the handler share it). */
  private readonly held = new WeakMap<object, Reservation>();
  private readonly now: () => number;
  private readonly waitMs: number;
  private readonly pollMs: number;
  private readonly abandonAfterMs: number;

  constructor(private readonly o: IdempotencyOptions) {
    this.now = o.now ?? Date.now;
    this.waitMs = o.waitMs ?? 5_000;
    this.pollMs = o.pollMs ?? 25;
    this.abandonAfterMs = o.abandonAfterMs ?? 4_000;
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
      const committed = stored?.status_code === COMMITTED_STATUS;
      if (stored && stored.status_code !== PENDING_STATUS && !committed) {
        return { kind: 'replay', statusCode: stored.status_code, body: stored.response as string };
      }
      // Pending, committed with its answer on the way, or released a moment ago: wait for the
      // answer, then look again. A committed key whose answer never comes lost its process.
      if (committed && polls <= 0) return { kind: 'committed' };
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

  /** Keeps the reservation a request made until its answer is stored or released. */
  hold(request: object, reservation: Reservation): void {
    this.held.set(request, reservation);
  }

  heldBy(request: object): Reservation | undefined {
    return this.held.get(request);
  }

  drop(request: object): void {
    this.held.delete(request);
  }

  /** Runs a request's handler holding its reservation, so its transactions can `fence`. */
  run<T>(reservation: Reservation, handler: () => T): T {
    return this.scope.run(reservation, handler);
  }

  /**
   * In a change's transaction (first): records that the running request's key made this change,
   * so a retry after a crash finds it committed instead of re-running it. Refuses (409) when a
   * retry took the key over, which rolls the change back. Outside a keyed request: nothing.
   */
  async fence(trx: BpmDb): Promise<void> {
    const reservation = this.scope.getStore();
    if (!reservation) return;
    if (!(await markCommitted(trx, reservation, reservation.reservedAt))) {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        'a retry with this Idempotency-Key took it over; this request changed nothing',
        { idempotency_key: reservation.key },
      );
    }
  }

  /** Stores the answer rebuilt for a key whose change committed and whose answer was lost. */
  async finishCommitted(ref: KeyRef, statusCode: number, body: string): Promise<void> {
    await completeCommittedKey(this.o.db, ref, statusCode, body);
  }
}
