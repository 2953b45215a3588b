import type { Failpoints } from '../failpoints.js';
import { createHash, createHmac } from 'node:crypto';
import type { Generated, Kysely, Transaction } from 'kysely';
import { maskSecrets } from './masking.js';

/** The chain's first `prev_hash`. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditTables = {
  audit_business_logs: {
    id: Generated<number>;
    tenant_id: number;
    seq: number;
    actor_id: number;
    actor_name: string;
    action: string;
    target_type: string;
    target_id: string;
    before: unknown;
    after: unknown;
    summary: string;
    prev_hash: string;
    hash: string;
    created_at: Date;
  };
  /** `legacy_until`: the last link written before the chain was keyed (migration 0011). */
  audit_chain_heads: {
    tenant_id: number;
    seq: number;
    hash: string;
    legacy_until: Generated<number>;
  };
  audit_chain_checkpoints: {
    id: Generated<number>;
    tenant_id: number;
    seq: number;
    hash: string;
    legacy_until: number;
    created_at: Date;
    signature: string;
  };
};

export interface BusinessAuditEntry {
  tenantId: number;
  /** The person (or 0 for the system) who made the change. */
  actorId: number;
  actorName: string;
  /** What was done: `create`, `update`, `delete`, `publish`, `terminate`, … */
  action: string;
  /** The record kind: `user`, `role`, `department`, `tenant`, `definition`, `instance`, … */
  targetType: string;
  /** The records changed, named explicitly: an audited write never has an unbounded scope. */
  targetIds: Array<string | number>;
  before: unknown;
  after: unknown;
  summary: string;
}

export class AuditWriteError extends Error {
  override name = 'AuditWriteError';
}

/** The canonical text a row's hash covers: fixed key order, so the hash is reproducible. */
export function linkContent(row: {
  tenant_id: number;
  seq: number;
  actor_id: number;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  summary: string;
  created_at: string;
}): string {
  return JSON.stringify([
    row.tenant_id,
    row.seq,
    row.actor_id,
    row.actor_name,
    row.action,
    row.target_type,
    row.target_id,
    canonical(row.before),
    canonical(row.after),
    row.summary,
    row.created_at,
  ]);
}

/** JSON with object keys sorted at every depth (jsonb does not keep key order). */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value ?? null;
}

/**
 * A link: HMAC-SHA256 under the chain key (AUDIT_CHAIN_SECRET, which the database never holds),
 * so someone who can rewrite rows cannot recompute the links after an edit. Links written before
 * the chain was keyed (`seq <= legacy_until`) are plain SHA-256; pass `null` to check those.
 */
export function linkHash(prevHash: string, content: string, key: Buffer | null): string {
  const mac = key ? createHmac('sha256', key) : createHash('sha256');
  return mac.update(prevHash).update('\n').update(content).digest('hex');
}

function isTransaction(db: Kysely<never>): db is Transaction<never> {
  return (db as unknown as { isTransaction?: boolean }).isTransaction === true;
}

/**
 * Writes business-audit rows inside the caller's transaction, one per target id, chained per
 * tenant under the chain key (AUDIT_CHAIN_SECRET). The kernel makes one per process and hands it
 * to every service that records changes. Refuses (throws, so the caller's change rolls back) a
 * write with no actor name, no tenant, outside a transaction, or with no explicit target ids.
 */
export class BusinessAuditWriter {
  constructor(
    private readonly chainKey: Buffer,
    /** `after_audit_write`: a failure here must roll the change back with its audit rows. */
    private readonly failpoints?: Failpoints,
  ) {}

  async write(db: Kysely<never>, entry: BusinessAuditEntry): Promise<void> {
    await writeChained(db, entry, this.chainKey);
    await this.failpoints?.hit('after_audit_write');
  }
}

async function writeChained(
  db: Kysely<never>,
  entry: BusinessAuditEntry,
  key: Buffer,
): Promise<void> {
  if (!isTransaction(db))
    throw new AuditWriteError(
      'business audit writes must run inside the change\u2019s transaction',
    );
  if (!Number.isSafeInteger(entry.tenantId) || entry.tenantId <= 0)
    throw new AuditWriteError('business audit needs a tenant');
  if (!Number.isSafeInteger(entry.actorId) || entry.actorId < 0 || !entry.actorName) {
    throw new AuditWriteError('business audit needs an actor');
  }
  const targetIds = entry.targetIds.map(String).filter((id) => id !== '');
  if (targetIds.length === 0 || targetIds.length !== entry.targetIds.length) {
    throw new AuditWriteError('business audit needs the explicit ids of the records changed');
  }
  const trx = db as unknown as Kysely<AuditTables>;
  await trx
    .insertInto('audit_chain_heads')
    .values({ tenant_id: entry.tenantId, seq: 0, hash: GENESIS_HASH })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
  const head = await trx
    .selectFrom('audit_chain_heads')
    .select(['seq', 'hash'])
    .where('tenant_id', '=', entry.tenantId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  let seq = Number(head.seq);
  let prevHash = head.hash;
  const createdAt = new Date();
  const before = maskSecrets(entry.before ?? null);
  const after = maskSecrets(entry.after ?? null);
  for (const targetId of targetIds) {
    seq += 1;
    const row = {
      tenant_id: entry.tenantId,
      seq,
      actor_id: entry.actorId,
      actor_name: entry.actorName,
      action: entry.action,
      target_type: entry.targetType,
      target_id: targetId,
      before,
      after,
      summary: entry.summary,
      created_at: createdAt.toISOString(),
    };
    const hash = linkHash(prevHash, linkContent(row), key);
    await trx
      .insertInto('audit_business_logs')
      .values({
        ...row,
        before: JSON.stringify(before) as never,
        after: JSON.stringify(after) as never,
        prev_hash: prevHash,
        hash,
        created_at: createdAt,
      })
      .execute();
    prevHash = hash;
  }
  await trx
    .updateTable('audit_chain_heads')
    .set({ seq, hash: prevHash })
    .where('tenant_id', '=', entry.tenantId)
    .execute();
}
