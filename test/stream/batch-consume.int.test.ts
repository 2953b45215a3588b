import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadMessage, Delivery } from '../../src/platform/stream/stream.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { until } from '../helpers/until.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

const fast = { ackWaitMs: 2000, backoffMs: 50, pollIntervalMs: 50, batchSize: 50 };

async function publishAll(event: string, payloads: object[]): Promise<string[]> {
  const ids = payloads.map(() => randomUUID());
  for (const [i, payload] of payloads.entries()) {
    await platform.kernel.stream.publish(event, payload, ids[i]!);
  }
  return ids;
}

describe(`batch consumption (${process.env.NATS_URL ? 'JetStream' : 'table stream'})`, () => {
  it('hands the waiting messages to the batch handler together and acknowledges them all', async () => {
    const event = `auth.test.${uniq('batch')}`;
    const ids = await publishAll(
      event,
      Array.from({ length: 30 }, (_, n) => ({ n })),
    );
    const batches: Delivery[][] = [];
    const single: string[] = [];
    const consumer = platform.kernel.stream.consume(
      uniq('batch'),
      [event],
      async (_payload, meta) => void single.push(meta.msgId),
      { ...fast, handleBatch: async (deliveries) => void batches.push(deliveries) },
    );
    try {
      await until('30 events acked', () => consumer.stats.acked === 30);
      const seen = [...batches.flat().map((d) => d.meta.msgId), ...single];
      expect(seen.sort()).toEqual([...ids].sort());
      expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
      expect(batches.flat().every((d) => d.meta.deliveryCount === 1)).toBe(true);
      // In stream order within a batch.
      for (const batch of batches) {
        const numbers = batch.map((d) => (d.payload as { n: number }).n);
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      }
      await new Promise((r) => setTimeout(r, fast.ackWaitMs + 500));
      expect(batches.flat().length + single.length).toBe(30); // nothing redelivered
    } finally {
      await consumer.stop();
    }
  });

  it('falls back to one by one when a batch fails: the bad message dies, the others are kept', async () => {
    const event = `auth.test.${uniq('fallback')}`;
    const durable = uniq('fallback');
    const payloads = Array.from({ length: 12 }, (_, n) => (n === 5 ? { bad: true } : { n }));
    const ids = await publishAll(event, payloads);
    const stored = new Map<string, number>();
    const dead: DeadMessage[] = [];
    const store = (payload: unknown, msgId: string) => {
      if ((payload as { bad?: boolean }).bad) throw new Error('does not match the schema');
      stored.set(msgId, (stored.get(msgId) ?? 0) + 1);
    };
    let batchCalls = 0;
    const consumer = platform.kernel.stream.consume(
      durable,
      [event],
      async (payload, meta) => store(payload, meta.msgId),
      {
        ...fast,
        onDead: (d) => void dead.push(d),
        // All or nothing, like one transaction: checks every message before storing any.
        handleBatch: async (deliveries) => {
          batchCalls++;
          for (const d of deliveries) {
            if ((d.payload as { bad?: boolean }).bad) throw new Error('does not match the schema');
          }
          for (const d of deliveries) store(d.payload, d.meta.msgId);
        },
      },
    );
    try {
      await until('the poison message dead', () => dead.length === 1);
      expect(dead[0]).toMatchObject({ consumer: durable, msgId: ids[5], deliveryCount: 5 });
      expect(batchCalls).toBeGreaterThanOrEqual(1);
      const good = ids.filter((_, n) => n !== 5);
      expect([...stored.keys()].sort()).toEqual([...good].sort());
      expect([...stored.values()].every((count) => count === 1)).toBe(true);
      expect(consumer.stats).toMatchObject({ acked: 11, dead: 1 });
      const recorded = await sql<{ msg_id: string; deliveries: number }>`
        SELECT msg_id, deliveries FROM stream_dead_letters WHERE consumer = ${durable}`.execute(
        platform.kernel.database.db,
      );
      expect(recorded.rows).toEqual([{ msg_id: ids[5], deliveries: 5 }]);
    } finally {
      await consumer.stop();
    }
  });

  it('stop waits for the batch in hand and acknowledges it', async () => {
    const event = `auth.test.${uniq('stop')}`;
    await publishAll(
      event,
      Array.from({ length: 10 }, (_, n) => ({ n })),
    );
    let entered!: () => void;
    const inHand = new Promise<void>((resolve) => (entered = resolve));
    let finished = 0;
    const consumer = platform.kernel.stream.consume(
      uniq('stop'),
      [event],
      async () => {
        entered();
        await new Promise((r) => setTimeout(r, 300));
        finished++;
      },
      {
        ...fast,
        handleBatch: async (deliveries) => {
          entered();
          await new Promise((r) => setTimeout(r, 300));
          finished += deliveries.length;
        },
      },
    );
    await inHand;
    await consumer.stop();
    expect(finished).toBeGreaterThan(0);
    expect(consumer.stats.acked).toBe(finished);
  });
});
