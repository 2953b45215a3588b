import type { BpmDb } from '../bpm.tables.js';

// SQL of the Idempotency-Key store (table bpm_idempotency, one row per tenant, user and key).

/** `status_code` of a reserved key whose request has not changed anything yet. */
export const PENDING_STATUS = 0;
/**
 * `status_code` of a key whose request committed its change (written in the change's own
 * transaction) and whose answer is not stored yet: it is on its way, or its process died.
 */
export const COMMITTED_STATUS = 1;

export interface KeyRef {
  tenantId: number;
  userId: number;
  key: string;
}

export interface StoredKey {
  request_hash: string;
  status_code: number;
  response: unknown;
  created_at: Date;
}

const byKey = (ref: KeyRef) =>
  ({
    tenant_id: ref.tenantId,
    user_id: ref.userId,
    key: ref.key,
  }) as const;

/**
 * Reserves `ref` for a request: inserts a pending row, or takes over a row that expired
 * (created before `expiredBefore`) or a pending one whose request was abandoned (created before
 * `abandonedBefore`). True when this caller now holds the key. One statement: two requests
 * racing for one key both reach the row lock, and only the first passes the WHERE.
 */
export async function reserveKey(
  db: BpmDb,
  ref: KeyRef,
  requestHash: string,
  at: Date,
  expiredBefore: Date,
  abandonedBefore: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('bpm_idempotency')
    .values({
      ...byKey(ref),
      request_hash: requestHash,
      status_code: PENDING_STATUS,
      response: 'null',
      created_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'user_id', 'key'])
        .doUpdateSet({
          request_hash: requestHash,
          status_code: PENDING_STATUS,
          response: 'null',
          created_at: at,
        })
        .where((eb) =>
          eb.or([
            eb('bpm_idempotency.created_at', '<', expiredBefore),
            eb.and([
              eb('bpm_idempotency.status_code', '=', PENDING_STATUS),
              eb('bpm_idempotency.created_at', '<', abandonedBefore),
            ]),
          ]),
        ),
    )
    .returning('created_at')
    .executeTakeFirst();
  return row !== undefined;
}

export function findKey(db: BpmDb, ref: KeyRef): Promise<StoredKey | undefined> {
  return db
    .selectFrom('bpm_idempotency')
    .select(['request_hash', 'status_code', 'response', 'created_at'])
    .where('tenant_id', '=', ref.tenantId)
    .where('user_id', '=', ref.userId)
    .where('key', '=', ref.key)
    .executeTakeFirst();
}

/**
 * In the change's transaction: marks the reservation made at `reservedAt` as having committed
 * its change (a key already marked stays so: a request of several transactions). False when
 * the reservation is no longer this request's (a retry took it over): the change must not
 * commit. The row lock it takes holds a retry's take-over until the change commits or not.
 */
export async function markCommitted(db: BpmDb, ref: KeyRef, reservedAt: Date): Promise<boolean> {
  const row = await db
    .updateTable('bpm_idempotency')
    .set((eb) => ({
      status_code: eb
        .case()
        .when('status_code', '=', PENDING_STATUS)
        .then(COMMITTED_STATUS)
        .else(eb.ref('status_code'))
        .end(),
    }))
    .where('tenant_id', '=', ref.tenantId)
    .where('user_id', '=', ref.userId)
    .where('key', '=', ref.key)
    .where('created_at', '=', reservedAt)
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores the answer a retry rebuilt for a key whose change committed but whose answer was lost. */
export async function completeCommittedKey(
  db: BpmDb,
  ref: KeyRef,
  statusCode: number,
  responseText: string,
): Promise<void> {
  await db
    .updateTable('bpm_idempotency')
    .set({ status_code: statusCode, response: JSON.stringify(responseText) })
    .where('tenant_id', '=', ref.tenantId)
    .where('user_id', '=', ref.userId)
    .where('key', '=', ref.key)
    .where('status_code', '=', COMMITTED_STATUS)
    .execute();
}

/**
 * Stores the answer of the reservation made at `reservedAt`. The response is kept as the exact
 * text sent (a JSON string value), so a replay is byte for byte the original.
 */
export async function completeKey(
  db: BpmDb,
  ref: KeyRef,
  reservedAt: Date,
  statusCode: number,
  responseText: string,
): Promise<void> {
  await db
    .updateTable('bpm_idempotency')
    .set({ status_code: statusCode, response: JSON.stringify(responseText) })
    .where('tenant_id', '=', ref.tenantId)
    .where('user_id', '=', ref.userId)
    .where('key', '=', ref.key)
    .where('status_code', 'in', [PENDING_STATUS, COMMITTED_STATUS])
    .where('created_at', '=', reservedAt)
    .execute();
}

/**
 * Frees the reservation made at `reservedAt` (the request failed with a 5xx: the client may
 * retry). A key whose change committed is kept: a retry must not make the change twice.
 */
export async function releaseKey(db: BpmDb, ref: KeyRef, reservedAt: Date): Promise<void> {
  await db
    .deleteFrom('bpm_idempotency')
    .where('tenant_id', '=', ref.tenantId)
    .where('user_id', '=', ref.userId)
    .where('key', '=', ref.key)
    .where('status_code', '=', PENDING_STATUS)
    .where('created_at', '=', reservedAt)
    .execute();
}

/** Deletes the expired keys of one user (a range of the primary key). */
export async function purgeExpiredKeys(
  db: BpmDb,
  tenantId: number,
  userId: number,
  expiredBefore: Date,
): Promise<void> {
  await db
    .deleteFrom('bpm_idempotency')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('created_at', '<', expiredBefore)
    .execute();
}
