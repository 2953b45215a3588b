import {
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import {
  errorText,
  recordDeadLetter,
  redeliveryDelayMs,
  type ConsumeHandler,
  type ConsumerHandle,
  type ConsumerStats,
  type DeadMessage,
  type DeliveryMeta,
  type ResolvedConsumeOptions,
} from './consume.js';
import { watchMaxDeliveries } from './jetstream-dead-letters.js';
import { durableName, ensureConsumer } from './jetstream-setup.js';

export { durableName } from './jetstream-setup.js';

/** Batches a consumer handles at the same time (with `handleBatch`). */
const BATCHES_IN_FLIGHT = 2;

/**
 * Durable pull consumers on JetStream, one per subject (NATS 2.9 has no `filter_subjects`), all
 * with explicit ack and `max_deliver`. Replicas using the same durable name share its messages.
 * A failure is nak'ed with a back-off delay; the last allowed failure records the message as
 * dead and terminates it, so the server never delivers it again. A last delivery that is never
 * answered (the process died) is recorded from the server's max-deliveries advisory instead.
 * Messages already in the client's buffer are handled together (up to `batchSize`) when
 * `handleBatch` is given, each acknowledged once the batch has succeeded.
 */
export function consumeJetStream(
  ready: Promise<{ nc: NatsConnection; js: JetStreamClient }>,
  db: Kysely<object>,
  logger: Logger,
  stream: string,
  durable: string,
  subjects: string[],
  handler: ConsumeHandler,
  options: ResolvedConsumeOptions,
): ConsumerHandle {
  const stats: ConsumerStats = { acked: 0, failed: 0, dead: 0 };
  let stopped = false;
  const iterators: ConsumerMessages[] = [];
  const loops: Promise<void>[] = [];
  const inHand = new Set<Promise<void>>();

  const metaOf = (message: JsMsg): DeliveryMeta => ({
    deliveryCount: message.info.deliveryCount,
    msgId: message.headers?.get('Nats-Msg-Id') || `${stream}:${message.seq}`,
    subject: message.subject,
  });

  const markDead = async (dead: DeadMessage) => {
    const recorded = await recordDeadLetter(db, dead).catch((e: unknown) => {
      logger.error({ msg_id: dead.msgId, err: errorText(e) }, 'dead letter not recorded');
      return true; // counted anyway: the message is terminated and never delivered again
    });
    if (!recorded) return; // the advisory watcher recorded it first
    stats.dead++;
    logger.error(
      { consumer: durable, msg_id: dead.msgId, deliveries: dead.deliveryCount, err: dead.error },
      'stream message is dead',
    );
    await options.onDead?.(dead);
  };

  const handleOne = async (message: JsMsg) => {
    const meta = metaOf(message);
    let payload: unknown;
    try {
      payload = message.json();
      await handler(payload, meta);
      // Confirmed ack: the message is only counted as handled once the server has it.
      await message.ackAck();
      stats.acked++;
    } catch (err) {
      const error = errorText(err);
      stats.failed++;
      if (meta.deliveryCount >= options.maxDeliver) {
        await markDead({
          consumer: durable,
          msgId: meta.msgId,
          subject: message.subject,
          payload: payload ?? message.string(),
          deliveryCount: meta.deliveryCount,
          error,
        });
        message.term(error.slice(0, 200));
      } else {
        message.nak(redeliveryDelayMs(options.backoffMs, meta.deliveryCount));
        logger.warn(
          { consumer: durable, msg_id: meta.msgId, deliveries: meta.deliveryCount, err: error },
          'stream message failed; redelivering',
        );
      }
    }
  };

  const handleMany = async (nc: NatsConnection, batch: JsMsg[]) => {
    const handleBatch = options.handleBatch;
    if (!handleBatch || batch.length === 1) {
      for (const message of batch) await handleOne(message);
      return;
    }
    try {
      await handleBatch(batch.map((m) => ({ payload: m.json(), meta: metaOf(m) })));
    } catch (err) {
      logger.warn(
        { consumer: durable, messages: batch.length, err: errorText(err) },
        'stream batch failed; handling its messages one by one',
      );
      for (const message of batch) await handleOne(message);
      return;
    }
    // One flush confirms the batch's acks reached the server (one round trip instead of one
    // per message); an ack lost anyway only brings the message back to an idempotent handler.
    for (const message of batch) message.ack();
    try {
      await nc.flush();
      stats.acked += batch.length;
    } catch (err) {
      logger.warn(
        { consumer: durable, messages: batch.length, err: errorText(err) },
        'stream acks not confirmed; the messages may be redelivered',
      );
    }
  };

  const run = async (subject: string) => {
    const { nc, js } = await ready;
    const jsm = await jetstreamManager(nc);
    const name = durableName(durable, subject);
    await ensureConsumer(jsm, stream, name, subject, {
      ack_wait: options.ackWaitMs * 1_000_000,
      max_deliver: options.maxDeliver,
    });
    if (stopped) return;
    const consumer = await js.consumers.get(stream, name);
    const messages = await consumer.consume({
      max_messages: options.batchSize * (BATCHES_IN_FLIGHT + 1),
    });
    iterators.push(messages);
    if (stopped) {
      void messages.close().catch(() => undefined); // settles only once read: see stop()
      return;
    }
    // Two batches in flight: the next one is prepared (parsed, enriched) while the previous one
    // is being stored. Handlers are idempotent and order-independent, as with two replicas.
    const mine = new Set<Promise<void>>();
    for await (const batch of batches(messages, options.batchSize)) {
      const work = handleMany(nc, batch).finally(() => {
        inHand.delete(work);
        mine.delete(work);
      });
      inHand.add(work);
      mine.add(work);
      if (mine.size >= BATCHES_IN_FLIGHT) await Promise.race(mine);
      if (stopped) break;
    }
    await Promise.all(mine);
  };

  const start = (subject: string, task: (subject: string) => Promise<void>): Promise<void> =>
    task(subject).catch(async (err: unknown) => {
      if (stopped) return;
      logger.error(
        { consumer: durable, subject, err: errorText(err) },
        'JetStream consumer failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 2000).unref());
      if (!stopped) await start(subject, task);
    });
  const watchers = subjects.map((subject) =>
    watchMaxDeliveries({
      ready,
      db,
      logger,
      stream,
      consumer: durableName(durable, subject),
      durable,
      isStopped: () => stopped,
      onDead: async (dead) => {
        stats.dead++;
        await options.onDead?.(dead);
      },
    }),
  );
  for (const subject of subjects) loops.push(start(subject, run));

  return {
    stats,
    async stop() {
      stopped = true;
      // close() ends the pull subscription at once, but its promise settles only when the loop
      // reads the iterator up to its end, which a loop waiting on its batches in flight (then
      // leaving on `stopped`) never does: awaiting it hung stop() whenever two batches were in
      // flight. The loops are waited for below, with a bound.
      for (const m of iterators) void m.close().catch(() => undefined);
      await Promise.all(watchers.map((w) => w.stop()));
      // The batch in hand is finished and acknowledged; the rest of the buffer is redelivered.
      await Promise.all(inHand);
      // Unfinished set-up (NATS unreachable) is not waited for: it ends on its own.
      await Promise.race([
        Promise.all(loops),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
    },
  };
}

const IDLE = Symbol('idle');

/**
 * Groups a message iterator into batches: the messages the client already holds, up to `max`,
 * without waiting for more (a batch closes when nothing else arrived by the next macrotask).
 */
export async function* batches<T>(source: AsyncIterable<T>, max: number): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const first = await next;
    if (first.done) return;
    const batch = [first.value];
    next = iterator.next();
    let done = false;
    while (batch.length < max) {
      const idle = new Promise<typeof IDLE>((resolve) => setImmediate(() => resolve(IDLE)));
      const result = await Promise.race([next, idle]);
      if (result === IDLE) break;
      if (result.done) {
        done = true;
        break;
      }
      batch.push(result.value);
      next = iterator.next();
    }
    yield batch;
    if (done) return;
  }
}
