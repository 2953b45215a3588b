import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { auditChange } from '../audit.js';
import { parsePage, pageResult } from '../../../platform/http/envelope.js';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import { conflictOnReference } from '../../../platform/db/constraint-errors.js';
import type { IdentityDb } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import { lockUserForReference } from '../users/users.repo.js';
import {
  allDepartments,
  deleteDepartment,
  findDepartment,
  hasChildren,
  hasMembers,
  insertDepartment,
  isInSubtree,
  listDepartments,
  lockDepartmentForReference,
  lockDepartmentForUpdate,
  lockDepartmentTree,
  updateDepartment,
  type DepartmentPatch,
  type DepartmentRow,
} from './departments.repo.js';
import type {
  CreateDepartmentInput,
  DepartmentNode,
  DepartmentView,
  ListDepartmentsQuery,
  UpdateDepartmentInput,
} from './departments.schema.js';

export interface DepartmentsServiceOptions {
  db: IdentityDb;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

function toDepartmentView(row: DepartmentRow): DepartmentView {
  return { ...row, created_at: toIso(row.created_at), updated_at: toIso(row.updated_at) };
}

/** Nests departments under their parents; `rows` come in sibling order (sort, then id). */
export function buildTree(rows: DepartmentRow[]): DepartmentNode[] {
  const nodes = new Map<number, DepartmentNode>();
  for (const row of rows) nodes.set(row.id, { ...toDepartmentView(row), children: [] });
  const roots: DepartmentNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Department administration within the caller's tenant. */
export class DepartmentsService {
  constructor(private readonly o: DepartmentsServiceOptions) {}

  async list(principal: Principal, query: ListDepartmentsQuery) {
    const page = parsePage(query);
    const { rows, total } = await listDepartments(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toDepartmentView), total, page);
  }

  async tree(principal: Principal): Promise<DepartmentNode[]> {
    return buildTree(await allDepartments(this.o.db, principal.tenantId));
  }

  async get(principal: Principal, deptId: number): Promise<DepartmentView> {
    const row = await findDepartment(this.o.db, principal.tenantId, deptId);
    if (!row) throw AppError.notFound('department');
    return toDepartmentView(row);
  }

  async create(principal: Principal, input: CreateDepartmentInput): Promise<DepartmentView> {
    const tenantId = principal.tenantId;
    const row = await inTransaction(this.o.db, async (trx) => {
      const problems = await this.referenceProblems(trx, tenantId, input);
      if (problems.length > 0) throw AppError.validation(problems);
      const created = await insertDepartment(trx, {
        tenant_id: tenantId,
        name: input.name,
        parent_id: input.parent_id ?? null,
        leader_id: input.leader_id ?? null,
        sort: input.sort ?? 0,
      });
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'department',
        targetId: created.id,
        before: null,
        after: toDepartmentView(created),
        summary: `created department ${created.name}`,
      });
      return created;
    });
    return toDepartmentView(row);
  }

  async update(
    principal: Principal,
    deptId: number,
    input: UpdateDepartmentInput,
  ): Promise<DepartmentView> {
    const tenantId = principal.tenantId;
    const row = await inTransaction(this.o.db, async (trx) => {
      const moving = input.parent_id != null;
      if (moving) await lockDepartmentTree(trx, tenantId);
      if (!(await lockDepartmentForUpdate(trx, tenantId, deptId))) {
        throw AppError.notFound('department');
      }
      const problems = await this.referenceProblems(trx, tenantId, input);
      const parentId = input.parent_id;
      if (
        parentId != null &&
        !problems.some((p) => p.field === 'parent_id') &&
        (await isInSubtree(trx, tenantId, deptId, parentId))
      ) {
        problems.push({
          field: 'parent_id',
          rule: 'option',
          message: 'a department cannot move under itself or one of its sub-departments',
        });
      }
      if (problems.length > 0) throw AppError.validation(problems);
      const patch: DepartmentPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.parent_id !== undefined) patch.parent_id = input.parent_id;
      if (input.leader_id !== undefined) patch.leader_id = input.leader_id;
      if (input.sort !== undefined) patch.sort = input.sort;
      const before = (await findDepartment(trx, tenantId, deptId))!;
      const updated = await updateDepartment(trx, tenantId, deptId, patch);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'department',
        targetId: deptId,
        before: toDepartmentView(before),
        after: toDepartmentView(updated!),
        summary: `updated department ${updated!.name}`,
      });
      return updated;
    });
    return toDepartmentView(row!);
  }

  async remove(principal: Principal, deptId: number): Promise<void> {
    const tenantId = principal.tenantId;
    await inTransaction(this.o.db, async (trx) => {
      // The row lock waits for children or members being added right now, so the checks see them.
      if (!(await lockDepartmentForUpdate(trx, tenantId, deptId))) {
        throw AppError.notFound('department');
      }
      if (await hasChildren(trx, tenantId, deptId)) {
        throw AppError.conflict('the department has sub-departments');
      }
      if (await hasMembers(trx, tenantId, deptId)) {
        throw AppError.conflict('the department still has members');
      }
      const before = (await findDepartment(trx, tenantId, deptId))!;
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'department',
        targetId: deptId,
        before: toDepartmentView(before),
        after: null,
        summary: `deleted department ${before.name}`,
      });
      await conflictOnReference(
        deleteDepartment(trx, tenantId, deptId),
        'the department is still referenced by other records',
      );
    });
  }

  /** Parent and leader must belong to the tenant; every problem at once. */
  private async referenceProblems(
    db: IdentityDb,
    tenantId: number,
    input: { parent_id?: number | null | undefined; leader_id?: number | null | undefined },
  ): Promise<FieldProblem[]> {
    const problems: FieldProblem[] = [];
    if (
      input.parent_id != null &&
      !(await lockDepartmentForReference(db, tenantId, input.parent_id))
    ) {
      problems.push({ field: 'parent_id', rule: 'option', message: 'no such department' });
    }
    if (input.leader_id != null && !(await lockUserForReference(db, tenantId, input.leader_id))) {
      problems.push({ field: 'leader_id', rule: 'option', message: 'no such user' });
    }
    return problems;
  }
}
