import { sql, type Selectable } from 'kysely';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import type { Page } from '../../../platform/http/envelope.js';
import type { BpmDb, BpmTables, Starters } from '../bpm.tables.js';

export type DefinitionRow = Selectable<BpmTables['bpm_definitions']>;
export type DefinitionStatus = DefinitionRow['status'];

export const VERSION_CONSTRAINT = 'bpm_definitions_version';
export const ONE_PUBLISHED_CONSTRAINT = 'bpm_definitions_one_published';

export interface NewDefinition {
  tenant_id: number;
  key: string;
  name: string;
  category: string | null;
  version: number;
  form_mode: 'flow' | 'business';
  biz_type: string | null;
  form_schema: unknown;
  node_tree: unknown;
  starters: Starters;
  created_by: number;
}

export async function insertDefinition(db: BpmDb, row: NewDefinition): Promise<DefinitionRow> {
  return db
    .insertInto('bpm_definitions')
    .values({
      ...row,
      status: 'draft',
      form_schema: JSON.stringify(row.form_schema),
      node_tree: JSON.stringify(row.node_tree),
      starters: JSON.stringify(row.starters),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One definition version of the tenant; `lock` takes the row for a status change, so two
 * publishes of one draft serialise. */
export function findDefinition(
  db: BpmDb,
  tenantId: number,
  id: number,
  lock = false,
): Promise<DefinitionRow | undefined> {
  let query = db
    .selectFrom('bpm_definitions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function findPublished(
  db: BpmDb,
  tenantId: number,
  key: string,
): Promise<DefinitionRow | undefined> {
  return db
    .selectFrom('bpm_definitions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .where('status', '=', 'published')
    .executeTakeFirst();
}

export async function latestVersion(
  db: BpmDb,
  tenantId: number,
  key: string,
): Promise<{ version: number; draftId: number | null }> {
  const row = await db
    .selectFrom('bpm_definitions')
    .select([
      sql<number>`max(version)`.as('version'),
      sql<number | null>`max(id) FILTER (WHERE status = 'draft')`.as('draft_id'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return {
    version: Number(row.version ?? 0),
    draftId: row.draft_id === null ? null : Number(row.draft_id),
  };
}

/** Whether the key has a suspended version (a start by key then answers 409, not 404). */
export async function hasSuspendedVersion(db: BpmDb, tenantId: number, key: string) {
  const row = await db
    .selectFrom('bpm_definitions')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .where('status', '=', 'suspended')
    .executeTakeFirst();
  return row !== undefined;
}

/** A business type already registered by another key of the tenant. */
export async function bizTypeOwner(
  db: BpmDb,
  tenantId: number,
  bizType: string,
  exceptKey: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('bpm_definitions')
    .select('key')
    .where('tenant_id', '=', tenantId)
    .where('biz_type', '=', bizType)
    .where('key', '!=', exceptKey)
    .limit(1)
    .executeTakeFirst();
  return row?.key;
}

export interface DefinitionPatch {
  name?: string;
  category?: string | null;
  form_mode?: 'flow' | 'business';
  biz_type?: string | null;
  form_schema?: unknown;
  node_tree?: unknown;
  starters?: Starters;
}

export async function updateDraft(
  db: BpmDb,
  tenantId: number,
  id: number,
  patch: DefinitionPatch,
): Promise<DefinitionRow> {
  const { form_schema, node_tree, starters, ...plain } = patch;
  return db
    .updateTable('bpm_definitions')
    .set({
      ...plain,
      ...(form_schema !== undefined ? { form_schema: JSON.stringify(form_schema) } : {}),
      ...(node_tree !== undefined ? { node_tree: JSON.stringify(node_tree) } : {}),
      ...(starters !== undefined ? { starters: JSON.stringify(starters) } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setStatus(
  db: BpmDb,
  tenantId: number,
  id: number,
  status: DefinitionStatus,
  published = false,
): Promise<DefinitionRow> {
  return db
    .updateTable('bpm_definitions')
    .set({
      status,
      updated_at: sql<Date>`now()`,
      ...(published ? { published_at: sql<Date>`now()` } : {}),
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Archives the published version of a key, if any (before publishing another). */
export async function archivePublished(db: BpmDb, tenantId: number, key: string): Promise<void> {
  await db
    .updateTable('bpm_definitions')
    .set({ status: 'archived', updated_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .where('status', '=', 'published')
    .execute();
}

export interface DefinitionFilter {
  key?: string | undefined;
  status?: DefinitionStatus | undefined;
  keyword?: string | undefined;
}

export async function listDefinitions(
  db: BpmDb,
  tenantId: number,
  filter: DefinitionFilter,
  page: Page,
) {
  let query = db.selectFrom('bpm_definitions').where('tenant_id', '=', tenantId);
  if (filter.key) query = query.where('key', '=', filter.key);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.keyword) {
    const pattern = containsPattern(filter.keyword);
    query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('key', 'ilike', pattern)]));
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('key')
      .orderBy('version', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** Published flow-form definitions of the tenant, for the startable list. */
export function listPublishedFlows(db: BpmDb, tenantId: number): Promise<DefinitionRow[]> {
  return db
    .selectFrom('bpm_definitions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'published')
    .where('form_mode', '=', 'flow')
    .orderBy('key')
    .execute();
}
