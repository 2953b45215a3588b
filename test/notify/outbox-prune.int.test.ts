import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/logger.js';
import { OutboxDelivery } from '../../src/platform/notify/outbox.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

const DAY = 86_400_000;
const db = () => platform.kernel.database.db;

function delivery(table: 'bpm_outbox' | 'audit_notify_outbox', now: () => number = Date.now) {
  return new OutboxDelivery({
    db: db(),
    table,
    logger: createLogger('silent'),
    // Nothing is configured to receive: rounds claim no row that is not due anyway.
    targetOf: () => undefined,
    maxAttempts: 10,
    backoffBaseMs: 1000,
    leaseMs: 30_000,
    timeoutMs: 1000,
    keepDeliveredMs: 7 * DAY,
    now,
  });
}

/** One row of `table` in `status`, its delivery (if any) `ageDays` ago; answers its event id. */
async function row(table: string, status: string, ageDays: number) {
  const eventId = randomUUID();
  await sql`
    INSERT INTO ${sql.table(table)}
      (tenant_id, kind, event_id, target, payload, status, next_attempt_at, delivered_at)
    VALUES (1, 'notification', ${eventId}, 'prune-test', '{}'::jsonb, ${status},
      now() + interval '1 day',
      ${status === 'delivered' ? sql`now() - make_interval(days => ${ageDays})` : null})`.execute(
    db(),
  );
  return eventId;
}

async function remaining(table: string, ids: string[]) {
  const rows = await sql<{ event_id: string }>`
    SELECT event_id FROM ${sql.table(table)} WHERE event_id IN (${sql.join(ids)})`.execute(db());
  return new Set(rows.rows.map((r) => r.event_id));
}

describe('outbox pruning', () => {
  it.each(['bpm_outbox', 'audit_notify_outbox'] as const)(
    'deletes %s rows delivered longer ago than the keeping time, and nothing else',
    async (table) => {
      const old = await row(table, 'delivered', 8);
      const recent = await row(table, 'delivered', 1);
      const dead = await row(table, 'dead', 30);
      const pending = await row(table, 'pending', 30);
      expect(await delivery(table).prune()).toBeGreaterThanOrEqual(1);
      const left = await remaining(table, [old, recent, dead, pending]);
      expect([...left].sort()).toEqual([recent, dead, pending].sort());
    },
  );

  it('prunes in the first round, then not again within the hour', async () => {
    let clock = 0;
    const worker = delivery('bpm_outbox', () => clock);
    await worker.runOnce();
    const old = await row('bpm_outbox', 'delivered', 8);
    clock += 30 * 60_000;
    await worker.runOnce();
    expect((await remaining('bpm_outbox', [old])).has(old)).toBe(true);
    clock += 31 * 60_000;
    await worker.runOnce();
    expect((await remaining('bpm_outbox', [old])).has(old)).toBe(false);
  });
});
