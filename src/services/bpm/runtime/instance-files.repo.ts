import { TERMINAL_STATUSES, type FormData, type FormSchema } from '../engine/index.js';
import type { BpmDb } from '../bpm.tables.js';

/** Every file id the form's `file` fields hold, each once, sorted. */
export function fileIdsOf(schema: FormSchema, form: FormData): number[] {
  const ids = new Set<number>();
  for (const field of schema.fields) {
    const value = form[field.key];
    if (field.type === 'file' && Array.isArray(value)) for (const id of value) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Records the files the instance's form holds now, in the caller's transaction. `before` is what
 * its form held until now (the rows stored, which this function alone writes; none for a new
 * instance): when it held none there is nothing to delete, and a form without files writes
 * nothing at all.
 */
export async function holdFiles(
  db: BpmDb,
  tenantId: number,
  instanceId: number,
  fileIds: number[],
  before: number[],
): Promise<void> {
  if (before.length > 0) {
    await db.deleteFrom('bpm_instance_files').where('instance_id', '=', instanceId).execute();
  }
  if (fileIds.length === 0) return;
  await db
    .insertInto('bpm_instance_files')
    .values(fileIds.map((file_id) => ({ tenant_id: tenantId, instance_id: instanceId, file_id })))
    .execute();
}

/** Whether a request of the tenant that is not over holds the file in its form. */
export async function isFileHeld(db: BpmDb, tenantId: number, fileId: number): Promise<boolean> {
  const row = await db
    .selectFrom('bpm_instance_files as f')
    .innerJoin('bpm_instances as i', 'i.id', 'f.instance_id')
    .select('f.file_id')
    .where('f.tenant_id', '=', tenantId)
    .where('f.file_id', '=', fileId)
    .where('i.status', 'not in', [...TERMINAL_STATUSES])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
