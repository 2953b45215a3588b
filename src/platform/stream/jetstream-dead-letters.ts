import {
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { errorText, recordDeadLetter, redeliveryDelayMs, type DeadMessage } from './consume.js';
import { ensureConsumer, maxDeliveriesSubject } from './jetstream-setup.js';

/** What the server publishes when a message reached `max_deliver` without an answer. */
interface MaxDeliverAdvisory {
  stream_seq: number;
  deliveries: number;
}

export const UNANSWERED = 'not acknowledged within the ack wait';

export interface MaxDeliveriesWatch {
  ready: Promise<{ nc: NatsConnection; js: JetStreamClient }>;
  db: Kysely<object>;
  logger: Logger;
  stream: string;
  /** The JetStream consumer whose advisories are read. */
  consumer: string;
  /** The platform's durable name, under which dead letters are recorded. */
  durable: string;
  isStopped: () => boolean;
  /** Called once per dead letter this watcher recorded (not when it was already recorded). */
  onDead: (dead: DeadMessage) => Promise<void>;
}

/**
 * Records as dead the messages whose last delivery was never answered (the consumer process
 * died holding it): JetStream then stops delivering them and only says so in a max-deliveries
 * advisory. The advisories are read through a durable consumer of their own (explicit ack,
 * unlimited deliveries), the message is read back by its stream sequence, and the dead letter
 * is recorded once (`recordDeadLetter` keys on consumer and message id).
 */
export function watchMaxDeliveries(watch: MaxDeliveriesWatch): { stop(): Promise<void> } {
  let messages: ConsumerMessages | undefined;
  let closed = false;

  const record = async (advisory: MaxDeliverAdvisory, jsm: JetStreamManager) => {
    const stored = await jsm.streams
      .getMessage(watch.stream, { seq: advisory.stream_seq })
      .catch(() => null); // gone (max age): recorded without its payload
    let payload: unknown = null;
    if (stored) {
      try {
        payload = stored.json();
      } catch {
        payload = stored.string();
      }
    }
    const dead: DeadMessage = {
      consumer: watch.durable,
      msgId: stored?.header?.get('Nats-Msg-Id') || `${watch.stream}:${advisory.stream_seq}`,
      subject: stored?.subject ?? '',
      payload,
      deliveryCount: advisory.deliveries,
      error: UNANSWERED,
    };
    if (!(await recordDeadLetter(watch.db, dead))) return;
    watch.logger.error(
      {
        consumer: watch.durable,
        msg_id: dead.msgId,
        deliveries: dead.deliveryCount,
        err: UNANSWERED,
      },
      'stream message is dead',
    );
    await watch.onDead(dead);
  };

  const run = async () => {
    const { nc, js } = await watch.ready;
    const jsm = await jetstreamManager(nc);
    const name = `${watch.consumer}__maxdeliver`;
    await ensureConsumer(
      jsm,
      watch.stream,
      name,
      maxDeliveriesSubject(watch.stream, watch.consumer),
      {
        ack_wait: 30_000_000_000,
        max_deliver: -1,
      },
    );
    if (closed) return;
    messages = await (await js.consumers.get(watch.stream, name)).consume({ max_messages: 10 });
    if (closed) await messages.close();
    for await (const message of messages) {
      try {
        await record(message.json<MaxDeliverAdvisory>(), jsm);
        await message.ackAck();
      } catch (err) {
        watch.logger.warn(
          { consumer: watch.durable, err: errorText(err) },
          'max-deliveries advisory not handled; retrying',
        );
        message.nak(redeliveryDelayMs(1000, message.info.deliveryCount));
      }
      if (closed) break;
    }
  };

  const loop = async (): Promise<void> => {
    try {
      await run();
    } catch (err) {
      if (closed || watch.isStopped()) return;
      watch.logger.error(
        { consumer: watch.durable, err: errorText(err) },
        'max-deliveries watcher failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 2000).unref());
      if (!closed) await loop();
    }
  };
  const running = loop();

  return {
    async stop() {
      closed = true;
      await messages?.close().catch(() => undefined);
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    },
  };
}
