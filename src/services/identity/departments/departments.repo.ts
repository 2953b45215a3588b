import { sql, type ExpressionBuilder } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import type { DepartmentFilter } from './departments.schema.js';

export interface DepartmentRow {
  id: number;
  tenant_id: number;
  name: string;
  parent_id: number | null;
  leader_id: number | null;
  sort: number;
  created_at: Date;
  updated_at: Date;
}

export interface DepartmentPatch {
  name?: string;
  parent_id?: number | null;
  leader_id?: number | null;
  sort?: number;
}

const DEPARTMENT_COLUMNS = [
  'id',
  'tenant_id',
  'name',
  'parent_id',
  'leader_id',
  'sort',
  'created_at',
  'updated_at',
] as const;

function matching(tenantId: number, filter: DepartmentFilter) {
  return (eb: ExpressionBuilder<IdentityTables, 'iam_departments'>) => {
    const conditions = [eb('tenant_id', '=', tenantId)];
    if (filter.parent_id === 0) conditions.push(eb('parent_id', 'is', null));
    else if (filter.parent_id !== undefined)
      conditions.push(eb('parent_id', '=', filter.parent_id));
    return eb.and(conditions);
  };
}

export async function listDepartments(
  db: IdentityDb,
  tenantId: number,
  filter: DepartmentFilter,
  page: Page,
): Promise<{ rows: DepartmentRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('iam_departments')
      .select(DEPARTMENT_COLUMNS)
      .where(matching(tenantId, filter))
      .orderBy('id')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('iam_departments')
      .where(matching(tenantId, filter))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Every department of the tenant, in tree order among siblings (sort, then id). */
export function allDepartments(db: IdentityDb, tenantId: number): Promise<DepartmentRow[]> {
  return db
    .selectFrom('iam_departments')
    .select(DEPARTMENT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export function findDepartment(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
): Promise<DepartmentRow | undefined> {
  return db
    .selectFrom('iam_departments')
    .select(DEPARTMENT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deptId)
    .executeTakeFirst();
}

/**
 * Locks a department of the tenant for an update or delete. The lock waits for transactions that
 * are adding a child or a member (they hold a key-share lock on it), so checks made afterwards see them.
 */
export async function lockDepartmentForUpdate(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('iam_departments')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deptId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the department exists in the tenant; share-locked until the transaction ends. */
export async function lockDepartmentForReference(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('iam_departments')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deptId)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Serialises moves within one tenant's tree: two concurrent moves (A under B, B under A) each
 * pass a cycle check on their own snapshot, so they must not run side by side.
 */
export async function lockDepartmentTree(db: IdentityDb, tenantId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`iam_departments_tree:${tenantId}`}, 0))`.execute(
    db,
  );
}

/** Whether `candidateId` is `rootId` or one of its descendants. */
export async function isInSubtree(
  db: IdentityDb,
  tenantId: number,
  rootId: number,
  candidateId: number,
): Promise<boolean> {
  // UNION (not UNION ALL) ends the walk even on a cycle that somehow exists already.
  const { rows } = await sql<{ found: boolean }>`
    WITH RECURSIVE subtree(id) AS (
      SELECT id FROM iam_departments WHERE tenant_id = ${tenantId} AND id = ${rootId}
      UNION
      SELECT d.id FROM iam_departments d JOIN subtree s ON d.parent_id = s.id
      WHERE d.tenant_id = ${tenantId}
    )
    SELECT EXISTS (SELECT 1 FROM subtree WHERE id = ${candidateId}) AS found`.execute(db);
  return rows[0]?.found === true;
}

export async function hasChildren(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('iam_departments')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('parent_id', '=', deptId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function hasMembers(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('iam_users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('dept_id', '=', deptId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertDepartment(
  db: IdentityDb,
  department: {
    tenant_id: number;
    name: string;
    parent_id: number | null;
    leader_id: number | null;
    sort: number;
  },
): Promise<DepartmentRow> {
  return db
    .insertInto('iam_departments')
    .values(department)
    .returning(DEPARTMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateDepartment(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
  patch: DepartmentPatch,
): Promise<DepartmentRow | undefined> {
  return db
    .updateTable('iam_departments')
    .set({ ...patch, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deptId)
    .returning(DEPARTMENT_COLUMNS)
    .executeTakeFirst();
}

export async function deleteDepartment(
  db: IdentityDb,
  tenantId: number,
  deptId: number,
): Promise<void> {
  await db
    .deleteFrom('iam_departments')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', deptId)
    .execute();
}
