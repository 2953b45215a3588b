import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Page } from '../../platform/http/envelope.js';
import type { FilesTables } from './files.tables.js';

export type FileRow = Selectable<FilesTables['files_objects']>;
export type FilesDb = Kysely<FilesTables>;

/** One file of the tenant; another tenant's id reads as absent. */
export function findFile(db: FilesDb, tenantId: number, id: number) {
  return db
    .selectFrom('files_objects')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The file stored under `key`, whatever its tenant: the signed link names only the key. */
export function findByKey(db: FilesDb, key: string) {
  return db
    .selectFrom('files_objects')
    .selectAll()
    .where('storage_key', '=', key)
    .executeTakeFirst();
}

export async function listFiles(db: FilesDb, tenantId: number, page: Page) {
  const query = db.selectFrom('files_objects').where('tenant_id', '=', tenantId);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The tenant's stored bytes now (0 before its first upload). */
export async function usageOf(db: FilesDb, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('files_usage')
    .select('bytes')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/**
 * Adds `size` to the tenant's usage if the result stays within `limitBytes` (null: no limit), in
 * one conditional UPDATE: the row lock it takes orders concurrent uploads, and each sees the
 * others' committed sizes. False when the quota would be exceeded (nothing changed).
 */
export async function reserveUsage(
  trx: Transaction<FilesTables>,
  tenantId: number,
  size: number,
  limitBytes: number | null,
): Promise<boolean> {
  await trx
    .insertInto('files_usage')
    .values({ tenant_id: tenantId, bytes: 0 })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
  let update = trx
    .updateTable('files_usage')
    .set({ bytes: sql<number>`bytes + ${size}` })
    .where('tenant_id', '=', tenantId);
  if (limitBytes !== null) update = update.where(sql<boolean>`bytes + ${size} <= ${limitBytes}`);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseUsage(
  trx: Transaction<FilesTables>,
  tenantId: number,
  size: number,
): Promise<void> {
  await trx
    .updateTable('files_usage')
    .set({ bytes: sql<number>`greatest(bytes - ${size}, 0)` })
    .where('tenant_id', '=', tenantId)
    .execute();
}
