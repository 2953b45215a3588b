import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { causeText } from '../../platform/dependency-errors.js';
import type { EventStream } from '../../platform/stream/stream.js';
import type { AuthTables } from './auth.tables.js';

/** One login event as it waits in auth_login_outbox and goes on the stream. */
export interface LoginEventRow {
  event_id: string;
  event: 'auth.login.success' | 'auth.login.failed';
  payload: Record<string, unknown>;
}

/** Rows a relay round takes at most. */
const BATCH = 200;
/** How long a round's claim on its rows lasts (a replica that died gives them up after it). */
const CLAIM_MS = 30_000;
/** Each publish waits at most this long (a broker that does not answer). */
const PUBLISH_TIMEOUT_MS = 2000;
/** After a failed publish the rows wait this long, doubling per attempt up to a minute. */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 60_000;

/** A fresh event id: the stream's dedup id and the login log's unique key. */
export const newLoginEventId = (): string => randomUUID();

/** Writes one event into the outbox, on `db` or on the caller's transaction. */
export async function insertLoginEvent(db: Kysely<AuthTables>, row: LoginEventRow): Promise<void> {
  await db
    .insertInto('auth_login_outbox')
    .values({ event_id: row.event_id, event: row.event, payload: JSON.stringify(row.payload) })
    .execute();
}

/** How far the relay is behind: rows waiting, and the age of the oldest, in seconds. */
export interface LoginRelayBacklog {
  waiting: number;
  oldest_age_seconds: number;
}

/**
 * Moves login events from auth_login_outbox to the event stream: claims a batch (FOR UPDATE SKIP
 * LOCKED, so replicas take different rows), publishes each in order with its event id as the
 * stream's dedup id, deletes what went out. A publish that fails or times out ends the round;
 * the rest of the batch is released with a back-off, so a broker outage costs one timeout per
 * round, and the events stay until it is back. At least once: a relay dying after a publish and
 * before the delete republishes, which the stream and the login log drop by event id.
 */
export class LoginEventRelay {
  private readonly now: () => number;

  constructor(
    private readonly o: {
      db: Kysely<AuthTables>;
      stream: EventStream;
      logger: Logger;
      now?: () => number;
    },
  ) {
    this.now = o.now ?? Date.now;
  }

  /** One round; returns how many events it published. */
  async runOnce(): Promise<number> {
    const rows = await this.claim();
    const published: number[] = [];
    let failure: unknown;
    for (const row of rows) {
      try {
        await withTimeout(
          this.o.stream.publish(row.event, row.payload, row.event_id),
          PUBLISH_TIMEOUT_MS,
        );
        published.push(row.id);
      } catch (err) {
        failure = err;
        break;
      }
    }
    if (published.length > 0) {
      await this.o.db.deleteFrom('auth_login_outbox').where('id', 'in', published).execute();
    }
    const left = rows.filter((r) => !published.includes(r.id));
    if (failure !== undefined && left.length > 0) await this.backOff(left, failure);
    return published.length;
  }

  /** Rows waiting and the age of the oldest: readiness reports it. */
  async backlog(): Promise<LoginRelayBacklog> {
    const row = await this.o.db
      .selectFrom('auth_login_outbox')
      .select([
        sql<number>`count(*)::int`.as('waiting'),
        sql<number>`coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8`.as('age'),
      ])
      .executeTakeFirstOrThrow();
    return { waiting: Number(row.waiting), oldest_age_seconds: Math.floor(Number(row.age)) };
  }

  private async claim() {
    const until = new Date(this.now() + CLAIM_MS);
    const at = new Date(this.now());
    const result = await sql<{
      id: number;
      event_id: string;
      event: string;
      payload: Record<string, unknown>;
      attempts: number;
    }>`
      UPDATE auth_login_outbox SET claimed_until = ${until}
       WHERE id IN (
         SELECT id FROM auth_login_outbox
          WHERE claimed_until IS NULL OR claimed_until < ${at}
          ORDER BY id LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
      RETURNING id, event_id, event, payload, attempts`.execute(this.o.db);
    return result.rows.sort((a, b) => a.id - b.id);
  }

  private async backOff(rows: { id: number; attempts: number }[], failure: unknown) {
    const attempts = Math.max(...rows.map((r) => r.attempts)) + 1;
    const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempts - 1));
    const cause = causeText(failure);
    await this.o.db
      .updateTable('auth_login_outbox')
      .set({
        claimed_until: new Date(this.now() + wait),
        attempts: sql`attempts + 1`,
        last_error: cause.slice(0, 500),
      })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    this.o.logger.warn(
      { waiting: rows.length, retry_in_ms: wait, cause },
      'login events not published yet: kept for the next round',
    );
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`publish timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
