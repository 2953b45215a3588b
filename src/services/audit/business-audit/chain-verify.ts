import type { Kysely } from 'kysely';
import {
  GENESIS_HASH,
  linkContent,
  linkHash,
  type AuditTables,
} from '../../../platform/audit/business-audit.js';
import { checkpointEvidence } from './checkpoints.js';

/** Rows read per query: memory stays bounded whatever the chain's length. */
export const VERIFY_PAGE_ROWS = 1000;

export interface ChainVerdict {
  ok: boolean;
  checked: number;
  first_broken: { seq: number; id: number | null; reason: string } | null;
}

export interface VerifyOptions {
  db: Kysely<AuditTables>;
  linkKey: Buffer;
  checkpointKey: Buffer;
  checkpointFile?: string | undefined;
  pageRows?: number;
}

/**
 * Walks a tenant's chain in `seq` order, a page at a time (keyset), and reports the first broken
 * link: a changed row (its keyed link no longer matches), a missing or reordered one, a row that
 * does not point to its predecessor. Then compares the end of the chain with the head row and
 * with the furthest signed checkpoint (table or file): rows removed from the end, even with the
 * head rewritten to match, or the whole chain and head deleted, fall short of the checkpoint.
 */
export async function verifyChain(o: VerifyOptions, tenantId: number): Promise<ChainVerdict> {
  const pageRows = o.pageRows ?? VERIFY_PAGE_ROWS;
  const [head, evidence] = await Promise.all([
    o.db
      .selectFrom('audit_chain_heads')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst(),
    checkpointEvidence(o.db, o.checkpointKey, tenantId, o.checkpointFile),
  ]);
  const checkpoint = evidence.furthest;
  // The legacy boundary lives only in the signed checkpoint, never in the head row: without a
  // checkpoint every link must be keyed, so rewriting keyed rows as unkeyed links and moving the
  // boundary (checkpoints deleted, the file off) is caught at the first rewritten link.
  const legacyUntil = checkpoint ? checkpoint.legacy_until : 0;
  const broken = (seq: number, id: number | null, reason: string, checked: number) => ({
    ok: false,
    checked,
    first_broken: { seq, id, reason },
  });
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  for (;;) {
    const rows = await o.db
      .selectFrom('audit_business_logs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('seq', '>=', expectedSeq)
      .orderBy('seq')
      .limit(pageRows)
      .execute();
    for (const row of rows) {
      const seq = Number(row.seq);
      const checked = expectedSeq - 1;
      if (seq !== expectedSeq)
        return broken(
          seq,
          row.id,
          `expected link ${expectedSeq}: rows are missing or reordered`,
          checked,
        );
      if (row.prev_hash !== prevHash)
        return broken(seq, row.id, 'the link does not point to the previous row', checked);
      const content = linkContent({ ...row, seq, created_at: row.created_at.toISOString() });
      const key = seq <= legacyUntil ? null : o.linkKey;
      if (linkHash(prevHash, content, key) !== row.hash) {
        const unkeyed = key !== null && linkHash(prevHash, content, null) === row.hash;
        const reason = unkeyed
          ? 'the link is unkeyed but no signed checkpoint covers it as written before the chain was keyed'
          : 'the row was changed after it was written';
        return broken(seq, row.id, reason, checked);
      }
      if (checkpoint && seq === checkpoint.seq && row.hash !== checkpoint.hash)
        return broken(seq, row.id, 'the row differs from the signed checkpoint', checked);
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (rows.length < pageRows) break;
  }
  const last = expectedSeq - 1;
  if (evidence.forged > 0) {
    return broken(
      last + 1,
      null,
      `${evidence.forged} checkpoint(s) with an invalid signature`,
      last,
    );
  }
  if (checkpoint && checkpoint.seq > last) {
    return broken(
      last + 1,
      null,
      `the signed checkpoint of ${checkpoint.created_at} says ${checkpoint.seq} links: rows after ${last} were removed`,
      last,
    );
  }
  if (head && (Number(head.seq) !== last || head.hash !== prevHash)) {
    return broken(
      last + 1,
      null,
      `the chain head says ${head.seq} links: rows after ${last} were removed`,
      last,
    );
  }
  return { ok: true, checked: last, first_broken: null };
}
