import { createReadStream } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AuditTables } from '../../../platform/audit/business-audit.js';
import { reportHeartbeat } from '../../../platform/jobs/heartbeat.js';
import { logSurvived } from '../../../platform/dependency-errors.js';

export const CHECKPOINT_JOB = 'audit.chain_checkpoint';
/** Tenants checkpointed per query of a round. */
const ROUND_PAGE = 500;

/** A signed statement "tenant T's chain had `seq` links ending in `hash` at `created_at`". */
export interface Checkpoint {
  tenant_id: number;
  seq: number;
  hash: string;
  /** The last link written before the chain was keyed (plain SHA-256 up to here). */
  legacy_until: number;
  created_at: string;
  signature: string;
}

export interface CheckpointOptions {
  db: Kysely<AuditTables>;
  /** Derived from AUDIT_CHAIN_SECRET: the database never holds it, so it cannot forge one. */
  key: Buffer;
  /** The append-only file (AUDIT_CHECKPOINT_FILE); unset: the table only. */
  file?: string | undefined;
  logger: Logger;
  intervalMs: number;
  now?: () => Date;
}

function signatureOf(key: Buffer, c: Omit<Checkpoint, 'signature'>): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([c.tenant_id, c.seq, c.hash, c.legacy_until, c.created_at]))
    .digest('hex');
}

/** `c` signed with the checkpoint key. */
export function signCheckpoint(key: Buffer, c: Omit<Checkpoint, 'signature'>): Checkpoint {
  return { ...c, signature: signatureOf(key, c) };
}

export function isSigned(key: Buffer, c: Checkpoint): boolean {
  if (!/^[0-9a-f]{64}$/.test(c.signature)) return false;
  return timingSafeEqual(Buffer.from(signatureOf(key, c), 'hex'), Buffer.from(c.signature, 'hex'));
}

/**
 * One round: every tenant whose head moved since its newest checkpoint gets a new signed
 * checkpoint, in the table and appended to the file. A head that moved backwards (fewer links
 * than the newest checkpoint: rows and head rolled back) is not signed: it is logged as
 * tampering and left for verify to report against the earlier checkpoint.
 *
 * The legacy boundary (links before the chain was keyed, migration 0011) is never taken from
 * the database again: a checkpoint carries its predecessor's, a tenant's first checkpoint 0.
 * A head that claims another boundary (unkeyed links no signed checkpoint covers: rows relinked
 * without the key, checkpoints deleted) is not signed either. Only checkpoints written by the
 * releases before this rule ever signed a boundary from the head, right after 0011.
 */
export async function writeCheckpoints(o: CheckpointOptions): Promise<number> {
  let written = 0;
  let afterTenant = 0;
  for (;;) {
    const moved = await sql<{
      tenant_id: string;
      seq: string;
      hash: string;
      legacy_until: string;
      last_seq: string | null;
      last_hash: string | null;
      last_legacy_until: string | null;
      last_created_at: Date | null;
      last_signature: string | null;
      /** The chain's row at the last checkpoint's seq, as it is now. */
      row_hash: string | null;
    }>`
      SELECT h.tenant_id, h.seq, h.hash, h.legacy_until, c.seq AS last_seq, c.hash AS last_hash,
        c.legacy_until AS last_legacy_until, c.created_at AS last_created_at,
        c.signature AS last_signature,
        (SELECT b.hash FROM audit_business_logs b
          WHERE b.tenant_id = h.tenant_id AND b.seq = c.seq) AS row_hash
      FROM audit_chain_heads h
      LEFT JOIN LATERAL (
        SELECT seq, hash, legacy_until, created_at, signature FROM audit_chain_checkpoints c
        WHERE c.tenant_id = h.tenant_id ORDER BY c.seq DESC, c.id DESC LIMIT 1
      ) c ON true
      WHERE h.tenant_id > ${afterTenant} AND (c.seq IS NULL OR c.seq <> h.seq OR c.hash <> h.hash)
      ORDER BY h.tenant_id
      LIMIT ${ROUND_PAGE}`.execute(o.db);
    const lines: string[] = [];
    for (const row of moved.rows) {
      const seq = Number(row.seq);
      // Each checkpoint extends the last one: a head behind it (rows removed), or a chain whose
      // row at the last checkpoint is another row now (rows removed, then new ones written), is
      // not signed, so the furthest checkpoint keeps pointing at what was removed.
      if (
        row.last_seq !== null &&
        (Number(row.last_seq) >= seq || row.row_hash !== row.last_hash)
      ) {
        o.logger.error(
          { tenant_id: Number(row.tenant_id), head: seq, checkpoint: Number(row.last_seq) },
          'audit chain no longer extends its signed checkpoint: rows were removed or rewritten',
        );
        continue;
      }
      // The boundary carried on is believed only under a valid signature: a row inserted
      // without the key must not get its boundary signed.
      const last = row.last_seq === null ? null : lastCheckpointOf(row);
      if (last && !isSigned(o.key, last)) {
        o.logger.error(
          { tenant_id: last.tenant_id, checkpoint: last.seq },
          'audit chain checkpoint with an invalid signature: not extended',
        );
        continue;
      }
      const legacyUntil = last ? last.legacy_until : 0;
      if (Number(row.legacy_until) !== legacyUntil) {
        o.logger.error(
          {
            tenant_id: Number(row.tenant_id),
            head_legacy_until: Number(row.legacy_until),
            signed_legacy_until: legacyUntil,
          },
          'audit chain head claims unkeyed links no signed checkpoint covers: rows relinked without the key or checkpoints deleted',
        );
        continue;
      }
      const checkpoint = signCheckpoint(o.key, {
        tenant_id: Number(row.tenant_id),
        seq,
        hash: row.hash,
        legacy_until: legacyUntil,
        created_at: (o.now?.() ?? new Date()).toISOString(),
      });
      await o.db
        .insertInto('audit_chain_checkpoints')
        .values({ ...checkpoint, created_at: new Date(checkpoint.created_at) })
        .execute();
      lines.push(`${JSON.stringify(checkpoint)}\n`);
      written++;
    }
    if (o.file && lines.length > 0) {
      await mkdir(dirname(o.file), { recursive: true });
      await appendFile(o.file, lines.join(''), { mode: 0o600 });
    }
    if (moved.rows.length < ROUND_PAGE) return written;
    afterTenant = Number(moved.rows.at(-1)!.tenant_id);
  }
}

/** The newest checkpoint a round read beside a head, as it was signed. */
function lastCheckpointOf(row: {
  tenant_id: string;
  last_seq: string | null;
  last_hash: string | null;
  last_legacy_until: string | null;
  last_created_at: Date | null;
  last_signature: string | null;
}): Checkpoint {
  return {
    tenant_id: Number(row.tenant_id),
    seq: Number(row.last_seq),
    hash: row.last_hash ?? '',
    legacy_until: Number(row.last_legacy_until),
    created_at: new Date(row.last_created_at ?? 0).toISOString(),
    signature: row.last_signature ?? '',
  };
}

/** One replica signs at a time, so replicas never append the same head twice. */
const CHECKPOINT_LOCK_KEY = 727_011;

/**
 * A round with its heartbeat (`audit.chain_checkpoint`), for the periodic job: under a
 * transaction-level advisory lock; `skipped` when another replica holds it.
 */
export async function checkpointRound(o: CheckpointOptions): Promise<'reported' | 'skipped'> {
  try {
    const written = await o.db.transaction().execute(async (trx) => {
      const lock = await sql<{
        ok: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${CHECKPOINT_LOCK_KEY}) AS ok`.execute(trx);
      return lock.rows[0]?.ok ? writeCheckpoints({ ...o, db: trx }) : undefined;
    });
    if (written === undefined) return 'skipped';
    if (written > 0) o.logger.info({ job: CHECKPOINT_JOB, written }, 'audit checkpoints written');
    await reportHeartbeat(o.db as unknown as Kysely<object>, {
      name: CHECKPOINT_JOB,
      intervalMs: o.intervalMs,
      ok: true,
      message: null,
    });
    return 'reported';
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    logSurvived(o.logger, err, { job: CHECKPOINT_JOB }, 'audit checkpoint round failed');
    await reportHeartbeat(o.db as unknown as Kysely<object>, {
      name: CHECKPOINT_JOB,
      intervalMs: o.intervalMs,
      ok: false,
      message,
    }).catch(() => undefined);
    return 'reported';
  }
}

/** What verify compares the chain against: the furthest validly signed checkpoint. */
export interface CheckpointEvidence {
  /** The checkpoint with the most links, from the table or the file, whichever reaches further. */
  furthest: Checkpoint | null;
  /** Checkpoints of this tenant whose signature does not verify (forged or edited). */
  forged: number;
}

function consider(key: Buffer, evidence: CheckpointEvidence, c: Checkpoint) {
  if (!isSigned(key, c)) {
    evidence.forged++;
    return;
  }
  if (!evidence.furthest || c.seq > evidence.furthest.seq) evidence.furthest = c;
}

/** Reads the tenant's checkpoints from the table and the file; memory stays bounded. */
export async function checkpointEvidence(
  db: Kysely<AuditTables>,
  key: Buffer,
  tenantId: number,
  file: string | undefined,
): Promise<CheckpointEvidence> {
  const evidence: CheckpointEvidence = { furthest: null, forged: 0 };
  // The furthest ones first: a handful of rows decide (forged ones are counted as they come).
  const rows = await db
    .selectFrom('audit_chain_checkpoints')
    .select(['tenant_id', 'seq', 'hash', 'legacy_until', 'created_at', 'signature'])
    .where('tenant_id', '=', tenantId)
    .orderBy('seq', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  for (const r of rows) {
    consider(key, evidence, {
      tenant_id: Number(r.tenant_id),
      seq: Number(r.seq),
      hash: r.hash,
      legacy_until: Number(r.legacy_until),
      created_at: r.created_at.toISOString(),
      signature: r.signature,
    });
    if (evidence.furthest) break;
  }
  if (file) await readFileCheckpoints(file, key, tenantId, evidence);
  return evidence;
}

/** Streams the append-only file line by line (it is never loaded whole). */
async function readFileCheckpoints(
  file: string,
  key: Buffer,
  tenantId: number,
  evidence: CheckpointEvidence,
): Promise<void> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const missing = new Promise<boolean>((resolve) => {
    input.once('error', () => resolve(true));
    input.once('open', () => resolve(false));
  });
  if (await missing) return; // no file yet: nothing was checkpointed there
  const needle = `{"tenant_id":${tenantId},`;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (!line.startsWith(needle)) continue;
    try {
      consider(key, evidence, JSON.parse(line) as Checkpoint);
    } catch {
      evidence.forged++;
    }
  }
}
