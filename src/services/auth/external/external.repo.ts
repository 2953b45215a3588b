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
