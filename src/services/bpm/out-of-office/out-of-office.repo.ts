import { sql, type Selectable } from 'kysely';
import type { BpmDb, BpmTables } from '../bpm.tables.js';
import type { AbsenceBook } from '../engine/index.js';

export type AbsenceRow = Selectable<BpmTables['bpm_out_of_office']>;

/**
 * Who is out of office at `now` for instances of `definitionKey` (a period naming definitions
 * applies to those only), in one tenant: the engine's AbsenceBook, read in the caller's
 * transaction.
 */
export function absenceBook(
  db: BpmDb,
  tenantId: number,
  definitionKey: string,
  now: number,
): AbsenceBook {
  const at = new Date(now);
  return {
    async absenceOf(userId) {
      const row = await db
        .selectFrom('bpm_out_of_office')
        .select(['stand_in_id', 'ends_at'])
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('starts_at', '<=', at)
        .where('ends_at', '>', at)
        .where((eb) =>
          eb.or([
            eb('definition_keys', 'is', null),
            eb(sql`definition_keys`, '@>', sql`${JSON.stringify([definitionKey])}::jsonb`),
          ]),
        )
        .executeTakeFirst();
      return row ? { userId, standInId: row.stand_in_id, until: row.ends_at.getTime() } : null;
    },
  };
}

/** Every period of the tenant that is not over at `at` (held now, or still to come). */
export function periodsNotOver(db: BpmDb, tenantId: number, at: Date) {
  return db
    .selectFrom('bpm_out_of_office')
    .select(['user_id', 'stand_in_id', 'starts_at', 'ends_at', 'definition_keys'])
    .where('tenant_id', '=', tenantId)
    .where('ends_at', '>', at)
    .execute();
}

export function findAbsence(db: BpmDb, tenantId: number, userId: number) {
  return db
    .selectFrom('bpm_out_of_office')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface AbsenceInput {
  standInId: number;
  startsAt: Date;
  endsAt: Date;
  definitionKeys: string[] | null;
  movePending: boolean;
  comment: string | null;
}

/** Sets (or replaces) the user's one period. */
export async function saveAbsence(
  db: BpmDb,
  tenantId: number,
  userId: number,
  input: AbsenceInput,
  updatedBy: number,
): Promise<AbsenceRow> {
  const values = {
    stand_in_id: input.standInId,
    starts_at: input.startsAt,
    ends_at: input.endsAt,
    definition_keys: input.definitionKeys === null ? null : JSON.stringify(input.definitionKeys),
    move_pending: input.movePending,
    comment: input.comment,
    updated_by: updatedBy,
    updated_at: sql<Date>`now()`,
  };
  return db
    .insertInto('bpm_out_of_office')
    .values({ tenant_id: tenantId, user_id: userId, ...values })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAbsence(db: BpmDb, tenantId: number, userId: number) {
  return db
    .deleteFrom('bpm_out_of_office')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}
