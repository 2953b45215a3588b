import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/database.js';
import {
  STREAM_MAX_AGE_MS,
  resolveConsumeOptions,
  type ConsumeHandler,
  type ConsumeOptions,
  type ConsumerHandle,
} from './consume.js';
import { consumeJetStream } from './jetstream-consumer.js';
import { maxDeliveriesSubject } from './jetstream-setup.js';
import { consumeTable } from './table-consumer.js';

export type {
  ConsumeBatchHandler,
  ConsumeHandler,
  ConsumeOptions,
  ConsumerHandle,
  DeadMessage,
  Delivery,
  DeliveryMeta,
} from './consume.js';

export { STREAM_MAX_AGE_MS } from './consume.js';

/**
 * The durable event stream: NATS JetStream when `NATS_URL` is set, a table in the platform
 * database otherwise. Publishing is idempotent on `msgId` in both.
 */
export interface EventStream {
  readonly kind: 'jetstream' | 'table';
  /** The subject a platform event name is published on (adds `NATS_SUBJECT_PREFIX`). */
  subjectOf(event: string): string;
  publish(event: string, payload: object, msgId: string): Promise<void>;
  /**
   * Starts a durable consumer of `events`: at-least-once, explicit ack, redelivery with back-off
   * and dead after `maxDeliver` deliveries, the same on both backends. Processes sharing
   * `durable` share the messages; a message published while no consumer ran is delivered later.
   */
  consume(
    durable: string,
    events: string[],
    handler: ConsumeHandler,
    options?: ConsumeOptions,
  ): ConsumerHandle;
  close(): Promise<void>;
}

export interface StreamOptions {
  url?: string | undefined;
  stream: string;
  subjectPrefix: string;
}

export function openStream(
  options: StreamOptions,
  database: DatabaseHandle,
  logger: Logger,
): EventStream {
  return options.url
    ? new JetStreamEventStream(options, database, logger)
    : new TableEventStream(database, options, logger);
}

class TableEventStream implements EventStream {
  readonly kind = 'table';
  constructor(
    private readonly database: DatabaseHandle,
    private readonly options: StreamOptions,
    private readonly logger: Logger,
  ) {}

  subjectOf(event: string) {
    return `${this.options.subjectPrefix}${event}`;
  }

  async publish(event: string, payload: object, msgId: string) {
    await sql`INSERT INTO stream_messages (subject, msg_id, payload)
      VALUES (${this.subjectOf(event)}, ${msgId}, ${JSON.stringify(payload)}::jsonb)
      ON CONFLICT (msg_id) DO NOTHING`.execute(this.database.db);
  }

  consume(durable: string, events: string[], handler: ConsumeHandler, options?: ConsumeOptions) {
    return consumeTable(
      this.database.db,
      this.logger.child({ consumer: durable }),
      durable,
      events.map((e) => this.subjectOf(e)),
      handler,
      resolveConsumeOptions(options ?? {}),
    );
  }

  async close() {}
}

class JetStreamEventStream implements EventStream {
  readonly kind = 'jetstream';
  private readonly ready: Promise<{ nc: NatsConnection; js: JetStreamClient }>;

  constructor(
    private readonly options: StreamOptions,
    private readonly database: DatabaseHandle,
    private readonly logger: Logger,
  ) {
    // Connects in the background and keeps reconnecting: a NATS outage never stops a service.
    this.ready = (async () => {
      const nc = await connect({
        servers: options.url,
        name: 'approva',
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
      });
      const jsm = await jetstreamManager(nc);
      const config = {
        name: options.stream,
        // The max-deliveries advisories about this stream's consumers are kept with it: a
        // consumer that died holding a last delivery has it recorded as dead after a restart.
        subjects: [`${options.subjectPrefix}auth.>`, maxDeliveriesSubject(options.stream, '*')],
        max_age: STREAM_MAX_AGE_MS * 1_000_000,
      };
      try {
        await jsm.streams.info(options.stream);
        await jsm.streams.update(options.stream, config);
      } catch {
        await jsm.streams.add(config);
      }
      return { nc, js: jetstream(nc) };
    })();
    this.ready.catch((err: Error) => logger.error({ err: err.message }, 'JetStream set-up failed'));
  }

  subjectOf(event: string) {
    return `${this.options.subjectPrefix}${event}`;
  }

  async publish(event: string, payload: object, msgId: string) {
    const { js } = await this.ready;
    await js.publish(this.subjectOf(event), JSON.stringify(payload), { msgID: msgId });
  }

  consume(durable: string, events: string[], handler: ConsumeHandler, options?: ConsumeOptions) {
    return consumeJetStream(
      this.ready,
      this.database.db,
      this.logger.child({ consumer: durable }),
      this.options.stream,
      durable,
      events.map((e) => this.subjectOf(e)),
      handler,
      resolveConsumeOptions(options ?? {}),
    );
  }

  async close() {
    const connection = await Promise.race([
      this.ready.catch(() => undefined),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100).unref()),
    ]);
    await connection?.nc.drain().catch(() => undefined);
  }
}

/** Publishes without ever blocking or failing the caller: at most `timeoutMs`, errors logged. */
export function publishBestEffort(
  stream: EventStream,
  logger: Logger,
  event: string,
  payload: object,
  msgId: string,
  timeoutMs = 2000,
): void {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`publish timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  Promise.race([stream.publish(event, payload, msgId), timeout])
    .catch((err: Error) =>
      logger.warn({ event, event_id: msgId, err: err.message }, 'event not published'),
    )
    .finally(() => clearTimeout(timer));
}
