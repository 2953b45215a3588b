import { sql, type Kysely } from 'kysely';

/** Rows deleted per statement, so a large backlog never holds long locks. */
const PRUNE_BATCH = 1000;

/**
 * Deletes table-stream messages older than `maxAgeMs` (JetStream's `max_age`) that every
 * consumer is done with: past its cursor (it has seen them) and no delivery still pending
 * (acknowledged, dead, or not its subject). Their delivery rows go with them (ON DELETE
 * CASCADE). At most `maxBatches` statements per call; returns how many messages were deleted.
 * Claimed with SKIP LOCKED, so replicas pruning together never wait on each other.
 */
export async function pruneStreamMessages(
  db: Kysely<object>,
  maxAgeMs: number,
  maxBatches = 100,
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const result = await sql`
      DELETE FROM stream_messages WHERE id IN (
        SELECT m.id FROM stream_messages m
        WHERE m.created_at < now() - ${`${maxAgeMs} milliseconds`}::interval
          AND NOT EXISTS (SELECT 1 FROM stream_consumers c WHERE c.cursor < m.id)
          AND NOT EXISTS (SELECT 1 FROM stream_deliveries d
            WHERE d.message_id = m.id AND d.status = 'pending')
        ORDER BY m.id
        LIMIT ${PRUNE_BATCH}
        FOR UPDATE SKIP LOCKED)`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    deleted += count;
    if (count < PRUNE_BATCH) break;
  }
  return deleted;
}
