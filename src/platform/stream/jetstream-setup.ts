import { AckPolicy, DeliverPolicy, type JetStreamManager } from '@nats-io/jetstream';

/** JetStream durable names allow no `.`, `*`, `>` or whitespace. */
export function durableName(durable: string, subject: string): string {
  return `${durable}__${subject}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * The subject of JetStream's max-deliveries advisories for `consumer` of `stream` (`*`: all).
 * The event stream captures them (see `openStream`), so an advisory published while no consumer
 * process runs is still there when one starts.
 */
export function maxDeliveriesSubject(stream: string, consumer: string): string {
  return `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${consumer}`;
}

/** Creates a durable pull consumer (explicit ack, from the start), or updates its settings. */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  name: string,
  subject: string,
  config: { ack_wait: number; max_deliver: number },
): Promise<void> {
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
}
