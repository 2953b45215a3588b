import type { PasswordResetDb } from './password-reset.tables.js';

export async function insertResetToken(
  db: PasswordResetDb,
  row: { tenantId: number; userId: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('auth_password_resets')
    .values({
      tenant_id: row.tenantId,
      user_id: row.userId,
      token_hash: row.tokenHash,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Whether a token is open: unconsumed and unexpired (read only; consuming stays conditional). */
export async function isResetTokenOpen(db: PasswordResetDb, tokenHash: string, now: Date) {
  const row = await db
    .selectFrom('auth_password_resets')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Consumes an unexpired reset token with one conditional UPDATE: of two concurrent submits
 * exactly one gets the row. Every other open token of that user is consumed with it.
 */
export async function consumeResetToken(db: PasswordResetDb, tokenHash: string, now: Date) {
  return db.transaction().execute(async (trx) => {
    const won = await trx
      .updateTable('auth_password_resets')
      .set({ consumed_at: now })
      .where('token_hash', '=', tokenHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'tenant_id'])
      .executeTakeFirst();
    if (!won) return undefined;
    await trx
      .updateTable('auth_password_resets')
      .set({ consumed_at: now })
      .where('user_id', '=', won.user_id)
      .where('consumed_at', 'is', null)
      .execute();
    return { userId: Number(won.user_id), tenantId: Number(won.tenant_id) };
  });
}
