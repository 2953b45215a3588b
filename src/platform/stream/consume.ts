import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/** Seven days, the login-event retention of the spec (JetStream `max_age`, table-stream pruning). */
export const STREAM_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** What a handler learns about the delivery it is given. */
export interface DeliveryMeta {
  /** 1 on the first delivery, 2 on the first redelivery, … up to `maxDeliver`. */
  deliveryCount: number;
  /** The publisher's message id (the event id: idempotency key for the handler). */
  msgId: string;
  subject: string;
}

/** A message that failed on its last allowed delivery; it is never delivered again. */
export interface DeadMessage {
  consumer: string;
  msgId: string;
  subject: string;
  payload: unknown;
  deliveryCount: number;
  error: string;
}

/**
 * Processes one message. Resolving acknowledges it; throwing redelivers it after a back-off,
 * until the `maxDeliver`-th failure makes it dead. Handlers must be idempotent on `msgId`: a
 * crash between their side effect and the acknowledgement redelivers the message.
 */
export type ConsumeHandler = (payload: unknown, meta: DeliveryMeta) => Promise<void>;

/** One message of a batch, as the one-message handler would receive it. */
export interface Delivery {
  payload: unknown;
  meta: DeliveryMeta;
}

/**
 * Processes the messages taken in one round together (one transaction, one multi-row INSERT).
 * It must be all-or-nothing and idempotent on each `msgId`. Resolving acknowledges every
 * message; throwing hands each of them to the one-message handler, in the same delivery, so one
 * bad message neither blocks nor kills the others.
 */
export type ConsumeBatchHandler = (deliveries: Delivery[]) => Promise<void>;

export interface ConsumeOptions {
  /** Deliveries before a failing message is dead. Default 5. */
  maxDeliver?: number;
  /** How long a delivery may stay unacknowledged (crash, hang) before it is redelivered. Default 30 000 ms. */
  ackWaitMs?: number;
  /** Delay before redelivering after failure n: `backoffMs * 2^(n-1)`, capped at 60 s. Default 1000 ms. */
  backoffMs?: number;
  /** Table stream only: how often an idle consumer looks for new messages. Default 250 ms. */
  pollIntervalMs?: number;
  /**
   * Table stream only: how often the consumer deletes messages older than STREAM_MAX_AGE_MS
   * that every consumer is done with (JetStream's server does it itself). Default 1 hour.
   */
  pruneIntervalMs?: number;
  /** Messages taken per round (at most one batch). Default 20. */
  batchSize?: number;
  /**
   * Optional: handles the messages of a round (two or more) together; the one-message handler
   * remains the fallback when it throws. Default unset: one handler call per message.
   */
  handleBatch?: ConsumeBatchHandler;
  /** Called once per dead message, after it has been recorded in `stream_dead_letters`. */
  onDead?: (dead: DeadMessage) => void | Promise<void>;
}

export type ResolvedConsumeOptions = Required<Omit<ConsumeOptions, 'onDead' | 'handleBatch'>> &
  Pick<ConsumeOptions, 'onDead' | 'handleBatch'>;

export function resolveConsumeOptions(options: ConsumeOptions): ResolvedConsumeOptions {
  return {
    maxDeliver: options.maxDeliver ?? 5,
    ackWaitMs: options.ackWaitMs ?? 30_000,
    backoffMs: options.backoffMs ?? 1000,
    pollIntervalMs: options.pollIntervalMs ?? 250,
    pruneIntervalMs: options.pruneIntervalMs ?? 3_600_000,
    batchSize: options.batchSize ?? 20,
    onDead: options.onDead,
    handleBatch: options.handleBatch,
  };
}

const MAX_BACKOFF_MS = 60_000;

/** Exponential redelivery delay after the `failures`-th failure. */
export function redeliveryDelayMs(backoffMs: number, failures: number): number {
  return Math.min(backoffMs * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
}

/** Counters of one running consumer (also what tests and metrics read). */
export interface ConsumerStats {
  acked: number;
  failed: number;
  dead: number;
}

/** A running durable consumer. `stop` waits for the message or batch in hand and leaves the rest queued. */
export interface ConsumerHandle {
  readonly stats: ConsumerStats;
  stop(): Promise<void>;
}

/**
 * Records a dead message once per (consumer, message id), whichever backend delivered it.
 * Returns false when it was already recorded (e.g. by the JetStream max-deliveries advisory).
 */
export async function recordDeadLetter(db: Kysely<object>, dead: DeadMessage): Promise<boolean> {
  const result = await sql`INSERT INTO stream_dead_letters
      (consumer, msg_id, subject, payload, deliveries, last_error)
    VALUES (${dead.consumer}, ${dead.msgId}, ${dead.subject},
      ${JSON.stringify(dead.payload ?? null)}::jsonb, ${dead.deliveryCount}, ${dead.error})
    ON CONFLICT (consumer, msg_id) DO NOTHING`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 1000);
}
