import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { pruneStreamMessages } from './table-prune.js';
import {
  errorText,
  recordDeadLetter,
  redeliveryDelayMs,
  STREAM_MAX_AGE_MS,
  type ConsumeBatchHandler,
  type ConsumeHandler,
  type ConsumerHandle,
  type ConsumerStats,
  type ResolvedConsumeOptions,
} from './consume.js';
import { logSurvived } from '../dependency-errors.js';

/** Messages younger than this may still be uncommitted below a visible id: the cursor waits. */
const CURSOR_SETTLE_SECONDS = 60;

interface ClaimedRow {
  message_id: number;
  attempts: number;
  msg_id: string;
  subject: string;
  payload: unknown;
}

/**
 * A durable consumer of the table stream, with JetStream's semantics: at-least-once delivery,
 * explicit ack, redelivery after a failure (with back-off) or after `ackWaitMs` without an
 * answer, and dead after `maxDeliver` deliveries. Replicas sharing a durable name share the work:
 * deliveries are claimed with SKIP LOCKED, so one message is in one replica's hands at a time.
 */
export function consumeTable(
  db: Kysely<object>,
  logger: Logger,
  durable: string,
  subjects: string[],
  handler: ConsumeHandler,
  options: ResolvedConsumeOptions,
): ConsumerHandle {
  const stats: ConsumerStats = { acked: 0, failed: 0, dead: 0 };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;

  const dead = async (row: ClaimedRow, error: string) => {
    const message = {
      consumer: durable,
      msgId: row.msg_id,
      subject: row.subject,
      payload: row.payload,
      deliveryCount: row.attempts,
      error,
    };
    if (!(await recordDeadLetter(db, message))) return;
    stats.dead++;
    logger.error(
      { consumer: durable, msg_id: row.msg_id, deliveries: row.attempts, err: error },
      'stream message is dead',
    );
    await options.onDead?.(message);
  };

  /** True when the batch handler stored them all and they are acknowledged; false: one by one. */
  const handleAsBatch = async (
    handleBatch: ConsumeBatchHandler,
    rows: ClaimedRow[],
  ): Promise<boolean> => {
    try {
      await handleBatch(
        rows.map((row) => ({
          payload: row.payload,
          meta: { deliveryCount: row.attempts, msgId: row.msg_id, subject: row.subject },
        })),
      );
    } catch (err) {
      logger.warn(
        { consumer: durable, messages: rows.length, err: errorText(err) },
        'stream batch failed; handling its messages one by one',
      );
      return false;
    }
    // Fenced on each attempt number, as a single ack is.
    const acked = await sql`UPDATE stream_deliveries SET status = 'acked', updated_at = now()
      WHERE consumer = ${durable} AND status = 'pending'
        AND (message_id, attempts) IN (${sql.join(
          rows.map((row) => sql`(${row.message_id}::bigint, ${row.attempts}::int)`),
        )})`.execute(db);
    stats.acked += Number(acked.numAffectedRows ?? 0);
    return true;
  };

  let nextPruneAt = 0;
  const runRound = async (): Promise<number> => {
    await seedDeliveries(db, durable, subjects, options.batchSize * 10);
    if (Date.now() >= nextPruneAt) {
      nextPruneAt = Date.now() + options.pruneIntervalMs;
      // Housekeeping never holds up delivery: a failed prune is retried at the next interval.
      await pruneStreamMessages(db, STREAM_MAX_AGE_MS)
        .then((pruned) => {
          if (pruned > 0) logger.info({ consumer: durable, pruned }, 'old stream messages pruned');
        })
        .catch((err: unknown) =>
          logger.warn({ consumer: durable, err: errorText(err) }, 'stream prune failed'),
        );
    }
    // Deliveries whose last allowed attempt was never answered (crash): dead, not redelivered.
    const expired = await sql<ClaimedRow>`
      WITH gone AS (
        UPDATE stream_deliveries SET status = 'dead', updated_at = now(),
          last_error = coalesce(last_error, 'not acknowledged within the ack wait')
        WHERE consumer = ${durable} AND status = 'pending' AND attempts >= ${options.maxDeliver}
          AND next_attempt_at <= now()
        RETURNING message_id, attempts, last_error)
      SELECT g.message_id, g.attempts, m.msg_id, m.subject, m.payload
      FROM gone g JOIN stream_messages m ON m.id = g.message_id`.execute(db);
    for (const row of expired.rows) await dead(row, 'not acknowledged within the ack wait');

    const ackWait = `${options.ackWaitMs} milliseconds`;
    const claimed = await sql<ClaimedRow>`
      WITH due AS (
        SELECT message_id FROM stream_deliveries
        WHERE consumer = ${durable} AND status = 'pending' AND next_attempt_at <= now()
          AND attempts < ${options.maxDeliver}
        ORDER BY message_id
        LIMIT ${options.batchSize}
        FOR UPDATE SKIP LOCKED),
      taken AS (
        UPDATE stream_deliveries d
        SET attempts = d.attempts + 1, next_attempt_at = now() + ${ackWait}::interval,
          updated_at = now()
        FROM due WHERE d.consumer = ${durable} AND d.message_id = due.message_id
        RETURNING d.message_id, d.attempts)
      SELECT t.message_id, t.attempts, m.msg_id, m.subject, m.payload
      FROM taken t JOIN stream_messages m ON m.id = t.message_id
      ORDER BY t.message_id`.execute(db);

    if (options.handleBatch && claimed.rows.length > 1) {
      if (await handleAsBatch(options.handleBatch, claimed.rows)) return claimed.rows.length;
    }
    for (const row of claimed.rows) {
      if (stopped) break; // left claimed: redelivered after the ack wait, like JetStream
      // Fenced on the attempt number: a late answer to a delivery already taken over is ignored.
      const mine = sql`consumer = ${durable} AND message_id = ${row.message_id}
        AND attempts = ${row.attempts} AND status = 'pending'`;
      try {
        await handler(row.payload, {
          deliveryCount: row.attempts,
          msgId: row.msg_id,
          subject: row.subject,
        });
        await sql`UPDATE stream_deliveries SET status = 'acked', updated_at = now()
          WHERE ${mine}`.execute(db);
        stats.acked++;
      } catch (err) {
        const error = errorText(err);
        stats.failed++;
        if (row.attempts >= options.maxDeliver) {
          const marked = await sql`UPDATE stream_deliveries
            SET status = 'dead', last_error = ${error}, updated_at = now()
            WHERE ${mine}`.execute(db);
          if (Number(marked.numAffectedRows ?? 0) > 0) await dead(row, error);
        } else {
          const delay = `${redeliveryDelayMs(options.backoffMs, row.attempts)} milliseconds`;
          await sql`UPDATE stream_deliveries
            SET next_attempt_at = now() + ${delay}::interval, last_error = ${error},
              updated_at = now()
            WHERE ${mine}`.execute(db);
          logger.warn(
            { consumer: durable, msg_id: row.msg_id, deliveries: row.attempts, err: error },
            'stream message failed; redelivering',
          );
        }
      }
    }
    return claimed.rows.length;
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runRound()
        .then((taken) => schedule(taken >= options.batchSize ? 0 : options.pollIntervalMs))
        .catch((err: unknown) => {
          logSurvived(logger, err, { consumer: durable }, 'stream consumer round failed');
          schedule(options.pollIntervalMs * 4);
        });
    }, delayMs);
  };
  schedule(0);

  return {
    stats,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round?.catch(() => undefined);
    },
  };
}

/**
 * Gives every new message of `subjects` a delivery row for `durable`. The cursor only passes ids
 * of messages older than CURSOR_SETTLE_SECONDS, so a message committed after a higher id was
 * seen is still picked up; below the cursor, acknowledged rows are no longer needed.
 */
async function seedDeliveries(
  db: Kysely<object>,
  durable: string,
  subjects: string[],
  limit: number,
): Promise<void> {
  await sql`INSERT INTO stream_consumers (name) VALUES (${durable})
    ON CONFLICT (name) DO NOTHING`.execute(db);
  const settled = await sql<{ id: number | null }>`
    SELECT max(m.id) AS id FROM stream_messages m, stream_consumers c
    WHERE c.name = ${durable} AND m.id > c.cursor
      AND m.created_at < now() - ${`${CURSOR_SETTLE_SECONDS} seconds`}::interval`.execute(db);
  const seeded = await sql`
    INSERT INTO stream_deliveries (consumer, message_id)
    SELECT ${durable}, m.id FROM stream_messages m
    WHERE m.id > (SELECT cursor FROM stream_consumers WHERE name = ${durable})
      AND m.subject IN (${sql.join(subjects)})
      AND NOT EXISTS (SELECT 1 FROM stream_deliveries d
        WHERE d.consumer = ${durable} AND d.message_id = m.id)
    ORDER BY m.id
    LIMIT ${limit}
    ON CONFLICT (consumer, message_id) DO NOTHING`.execute(db);
  const settledId = settled.rows[0]?.id;
  if (settledId == null || Number(seeded.numAffectedRows ?? 0) >= limit) return;
  await sql`UPDATE stream_consumers SET cursor = greatest(cursor, ${settledId})
    WHERE name = ${durable}`.execute(db);
  await sql`DELETE FROM stream_deliveries
    WHERE consumer = ${durable} AND status = 'acked' AND message_id <= ${settledId}`.execute(db);
}
