import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneStreamMessages } from '../../src/platform/stream/table-prune.js';
import { STREAM_MAX_AGE_MS } from '../../src/platform/stream/stream.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { until } from '../helpers/until.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

const DAY = 86_400_000;

/** A message written `ageMs` ago on a subject no running consumer reads; returns its id. */
async function oldMessage(subject: string, ageMs: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    INSERT INTO stream_messages (subject, msg_id, payload, created_at)
    VALUES (${subject}, ${randomUUID()}, '{}'::jsonb,
      now() - ${`${ageMs} milliseconds`}::interval)
    RETURNING id`.execute(platform.kernel.database.db);
  return rows[0]!.id;
}

async function remaining(ids: number[]): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    SELECT id FROM stream_messages WHERE id IN (${sql.join(ids)}) ORDER BY id`.execute(
    platform.kernel.database.db,
  );
  return rows.map((r) => r.id);
}

describe('pruning the table stream', () => {
  it('deletes only messages older than 7 days that every consumer is done with', async () => {
    const db = platform.kernel.database.db;
    const subject = `prune.test.${uniq('s')}`;
    const young = await oldMessage(subject, DAY);
    const done = await oldMessage(subject, 8 * DAY);
    const pending = await oldMessage(subject, 8 * DAY);
    const unseen = await oldMessage(subject, 8 * DAY);
    const [a, b] = [uniq('prune_a'), uniq('prune_b')];
    // a has seen everything; b has not reached `unseen` yet.
    await sql`INSERT INTO stream_consumers (name, cursor) VALUES (${a}, ${unseen}), (${b}, ${pending})`.execute(
      db,
    );
    await sql`INSERT INTO stream_deliveries (consumer, message_id, status) VALUES
      (${a}, ${done}, 'acked'), (${b}, ${done}, 'dead'), (${a}, ${pending}, 'pending')`.execute(db);
    // Consumers the platform runs pass these ids on their own (no delivery: not their subject).
    await until('the unseen consumers pruned', async () => {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM stream_consumers WHERE cursor < ${unseen}
          AND name NOT IN (${a}, ${b})`.execute(db);
      return rows[0]!.n === 0;
    });

    expect(await pruneStreamMessages(db, STREAM_MAX_AGE_MS)).toBeGreaterThanOrEqual(1);
    expect(await remaining([young, done, pending, unseen])).toEqual([young, pending, unseen]);
    const deliveries = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM stream_deliveries WHERE message_id = ${done}`.execute(db);
    expect(deliveries.rows[0]!.n).toBe(0);

    // Once b has caught up and a's delivery is acknowledged, they go too; the young one stays.
    await sql`UPDATE stream_consumers SET cursor = ${unseen} WHERE name = ${b}`.execute(db);
    await sql`UPDATE stream_deliveries SET status = 'acked' WHERE consumer = ${a}`.execute(db);
    await pruneStreamMessages(db, STREAM_MAX_AGE_MS);
    expect(await remaining([young, done, pending, unseen])).toEqual([young]);
    await sql`DELETE FROM stream_consumers WHERE name IN (${a}, ${b})`.execute(db);
  });

  // Only the table stream prunes this way (JetStream keeps its own max age): on NATS the platform
  // has no table-stream consumer, so the case is not declared rather than skipped.
  if (!realServers.nats)
    it('is run by a table-stream consumer', async () => {
      const db = platform.kernel.database.db;
      const old = await oldMessage(`prune.test.${uniq('s')}`, 8 * DAY);
      await until('the old consumers pruned', async () => {
        const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM stream_consumers WHERE cursor < ${old}`.execute(db);
        return rows[0]!.n === 0;
      });
      // Its first round passes the message itself, then prunes.
      const consumer = platform.kernel.stream.consume(
        uniq('pruner'),
        [`prune.test.${uniq('other')}`],
        async () => undefined,
        { pollIntervalMs: 50 },
      );
      try {
        await until('nothing older left', async () => (await remaining([old])).length === 0);
      } finally {
        await consumer.stop();
      }
    });
});
