import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNANSWERED } from '../../src/platform/stream/jetstream-dead-letters.js';
import { durableName, maxDeliveriesSubject } from '../../src/platform/stream/jetstream-setup.js';
import type { DeadMessage } from '../../src/platform/stream/stream.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { until } from '../helpers/until.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

describe('a JetStream consumer that dies during the last delivery', () => {
  it.runIf(realServers.nats)(
    'has the message recorded as dead once, from the max-deliveries advisory kept in the stream',
    async () => {
      const event = `auth.test.${uniq('lastgasp')}`;
      const durable = uniq('lastgasp');
      const options = { ackWaitMs: 1000, backoffMs: 50, pollIntervalMs: 50, maxDeliver: 5 };
      const msgId = randomUUID();
      await platform.kernel.stream.publish(event, { last: 'gasp' }, msgId);

      // Fails four times, then "dies" holding the fifth delivery: never answers it.
      let holding!: () => void;
      const heldFifth = new Promise<void>((resolve) => (holding = resolve));
      const first = platform.kernel.stream.consume(
        durable,
        [event],
        async (_payload, meta) => {
          if (meta.deliveryCount < 5) throw new Error('not yet');
          holding();
          await new Promise(() => undefined);
        },
        options,
      );
      await heldFifth;
      void first.stop(); // gone: no more pulls, no advisory watcher

      // With nobody of ours listening, another client's pull makes the server give up on it.
      const nc = await connect({ servers: platform.settings.nats.url });
      const stream = platform.settings.nats.stream;
      const name = durableName(durable, platform.kernel.stream.subjectOf(event));
      try {
        const jsm = await jetstreamManager(nc);
        const consumer = await jetstream(nc).consumers.get(stream, name);
        await until(
          'the max-deliveries advisory',
          async () => {
            const pulled = await consumer.fetch({ max_messages: 1, expires: 1000 });
            for await (const m of pulled) m.nak(); // (never: the message is past its deliveries)
            const advisory = await jsm.streams
              .getMessage(stream, { last_by_subj: maxDeliveriesSubject(stream, name) })
              .catch(() => null);
            return advisory !== null;
          },
          20_000,
        );
      } finally {
        await nc.close();
      }

      const dead: DeadMessage[] = [];
      const next = platform.kernel.stream.consume(
        durable,
        [event],
        async () => {
          throw new Error('must not be delivered again');
        },
        { ...options, onDead: (d) => void dead.push(d) },
      );
      try {
        await until('the message dead', () => dead.length === 1, 20_000);
        expect(dead[0]).toMatchObject({
          consumer: durable,
          msgId,
          subject: platform.kernel.stream.subjectOf(event),
          payload: { last: 'gasp' },
          deliveryCount: 5,
          error: UNANSWERED,
        });
        await new Promise((r) => setTimeout(r, 1500));
        expect(dead).toHaveLength(1);
        expect(next.stats).toMatchObject({ dead: 1, failed: 0 });
        const recorded = await sql<{ deliveries: number; last_error: string }>`
          SELECT deliveries, last_error FROM stream_dead_letters
          WHERE consumer = ${durable} AND msg_id = ${msgId}`.execute(platform.kernel.database.db);
        expect(recorded.rows).toEqual([{ deliveries: 5, last_error: UNANSWERED }]);
      } finally {
        await next.stop();
      }
    },
    60_000,
  );
});
