import { sql } from 'kysely';
import type { TotpDb } from './totp.tables.js';

export function findTotp(db: TotpDb, userId: number) {
  return db
    .selectFrom('auth_totp')
    .select(['secret_encrypted', 'enabled_at', 'last_time_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A new pending secret; replaces a pending one, never an enabled one. */
export async function savePendingTotp(db: TotpDb, userId: number, secretEncrypted: string) {
  const result = await db
    .insertInto('auth_totp')
    .values({ user_id: userId, secret_encrypted: secretEncrypted, enabled_at: null })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_encrypted: secretEncrypted, last_time_step: null })
        .where('auth_totp.enabled_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Enables the pending secret and stores the recovery codes, in one transaction. */
export async function enableTotp(
  db: TotpDb,
  userId: number,
  timeStep: number,
  codeHashes: string[],
) {
  return db.transaction().execute(async (trx) => {
    const enabled = await trx
      .updateTable('auth_totp')
      .set({ enabled_at: sql<Date>`now()`, last_time_step: timeStep })
      .where('user_id', '=', userId)
      .where('enabled_at', 'is', null)
      .executeTakeFirst();
    if (Number(enabled.numUpdatedRows) === 0) return false;
    await trx.deleteFrom('auth_totp_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('auth_totp_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
      .execute();
    return true;
  });
}

/** Records a used time step; false when it (or a later one) was already used: a replay. */
export async function advanceTimeStep(db: TotpDb, userId: number, timeStep: number) {
  const result = await db
    .updateTable('auth_totp')
    .set({ last_time_step: timeStep })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', timeStep)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Uses a recovery code once. */
export async function useRecoveryCode(db: TotpDb, userId: number, codeHash: string) {
  const result = await db
    .updateTable('auth_totp_recovery_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTotp(db: TotpDb, userId: number) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('auth_totp_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('auth_totp').where('user_id', '=', userId).execute();
  });
}
