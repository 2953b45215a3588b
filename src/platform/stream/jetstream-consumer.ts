import {
  AckPolicy,
  DeliverPolicy,
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
  type ResolvedConsumeOptions,
} from './consume.js';

/** JetStream durable names allow no `.`, `*`, `>` or whitespace. */
export function durableName(durable: string, subject: string): string {
  return `${durable}__${subject}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * Durable pull consumers on JetStream, one per subject (NATS 2.9 has no `filter_subjects`), all
 * with explicit ack and `max_deliver`. Replicas using the same durable name share its messages.
 * A failure is nak'ed with a back-off delay; the last allowed failure records the message as
 * dead and terminates it, so the server never delivers it again.
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

  const handle = async (message: JsMsg) => {
    const deliveryCount = message.info.deliveryCount;
    const msgId = message.headers?.get('Nats-Msg-Id') || `${stream}:${message.seq}`;
    let payload: unknown;
    try {
      payload = message.json();
      await handler(payload, { deliveryCount, msgId, subject: message.subject });
      // Confirmed ack: the message is only counted as handled once the server has it.
      await message.ackAck();
      stats.acked++;
    } catch (err) {
      const error = errorText(err);
      stats.failed++;
      if (deliveryCount >= options.maxDeliver) {
        const dead = {
          consumer: durable,
          msgId,
          subject: message.subject,
          payload: payload ?? message.string(),
          deliveryCount,
          error,
        };
        await recordDeadLetter(db, dead).catch((e: unknown) =>
          logger.error({ msg_id: msgId, err: errorText(e) }, 'dead letter not recorded'),
        );
        message.term(error.slice(0, 200));
        stats.dead++;
        logger.error(
          { consumer: durable, msg_id: msgId, deliveries: deliveryCount, err: error },
          'stream message is dead',
        );
        await options.onDead?.(dead);
      } else {
        message.nak(redeliveryDelayMs(options.backoffMs, deliveryCount));
        logger.warn(
          { consumer: durable, msg_id: msgId, deliveries: deliveryCount, err: error },
          'stream message failed; redelivering',
        );
      }
    }
  };

  const run = async (subject: string) => {
    const { nc, js } = await ready;
    const jsm = await jetstreamManager(nc);
    const name = durableName(durable, subject);
    const config = {
      ack_wait: options.ackWaitMs * 1_000_000,
      max_deliver: options.maxDeliver,
    };
    const existing = await jsm.consumers.info(stream, name).catch(() => null);
    if (existing) await jsm.consumers.update(stream, name, config);
    else {
      await jsm.consumers.add(stream, {
        ...config,
        durable_name: name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: subject,
      });
    }
    if (stopped) return;
    const consumer = await js.consumers.get(stream, name);
    const messages = await consumer.consume({ max_messages: options.batchSize });
    iterators.push(messages);
    if (stopped) await messages.close();
    for await (const message of messages) {
      await handle(message);
      if (stopped) break;
    }
  };

  const start = (subject: string): Promise<void> =>
    run(subject).catch(async (err: unknown) => {
      if (stopped) return;
      logger.error(
        { consumer: durable, subject, err: errorText(err) },
        'JetStream consumer failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 2000).unref());
      if (!stopped) await start(subject);
    });
  for (const subject of subjects) loops.push(start(subject));

  return {
    stats,
    async stop() {
      stopped = true;
      await Promise.all(iterators.map((m) => m.close().catch(() => undefined)));
      // Unfinished set-up (NATS unreachable) is not waited for: it ends on its own.
      await Promise.race([
        Promise.all(loops),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
    },
  };
}
