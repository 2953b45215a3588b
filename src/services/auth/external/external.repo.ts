import type { Kysely } from 'kysely';

export type ExternalTables = {
  auth_external_identities: {
    provider: string;
    subject: string;
    user_id: number;
    tenant_id: number;
    email: string | null;
    created_at: Date | undefined;
  };
};

export type ExternalDb = Kysely<ExternalTables>;

export async function findLinkedUser(db: ExternalDb, provider: string, subject: string) {
  const row = await db
    .selectFrom('auth_external_identities')
    .select('user_id')
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row && Number(row.user_id);
}

/** Links; false when the external account is already linked to someone. */
export async function linkIdentity(
  db: ExternalDb,
  link: {
    provider: string;
    subject: string;
    userId: number;
    tenantId: number;
    email: string | null;
  },
): Promise<boolean> {
  const result = await db
    .insertInto('auth_external_identities')
    .values({
      provider: link.provider,
      subject: link.subject,
      user_id: link.userId,
      tenant_id: link.tenantId,
      email: link.email,
    })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The external accounts linked to a user, oldest first. */
export function linksOfUser(db: ExternalDb, userId: number) {
  return db
    .selectFrom('auth_external_identities')
    .select(['provider', 'email', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('provider')
    .execute();
}

/** Removes a user's links to one provider; answers how many there were. */
export async function unlinkProvider(
  db: ExternalDb,
  userId: number,
  provider: string,
): Promise<number> {
  const result = await db
    .deleteFrom('auth_external_identities')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
