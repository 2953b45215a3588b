import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { conflictOnDuplicate } from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import type { BpmDb, BpmTables, Starters } from '../bpm.tables.js';
import {
  definitionSizeProblems,
  namedIds,
  publishWarnings,
  validateFormSchema,
  validateTree,
  type FlowNode,
  type FormSchema,
  type PublishWarning,
} from '../engine/index.js';
import type { BpmDirectory, DirectoryOf, UserProfile } from '../bpm.ports.js';
import {
  archivePublished,
  bizTypeOwner,
  findDefinition,
  insertDefinition,
  latestVersion,
  listDefinitions,
  listPublishedFlows,
  setStatus,
  updateDraft,
  VERSION_CONSTRAINT,
  type DefinitionRow,
} from './definitions.repo.js';
import type {
  CreateDefinitionInput,
  DefinitionView,
  ListDefinitionsQuery,
  UpdateDefinitionInput,
} from './definitions.schema.js';

export interface DefinitionsServiceOptions {
  db: BpmDb;
  /** Identity's lookups: publishing refuses rules that name people or roles that do not exist. */
  directoryOf: DirectoryOf;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

/** A `users` or `roles` rule (or fallback list) naming an id the tenant does not have. */
async function unknownIdProblems(directory: BpmDirectory, tree: FlowNode): Promise<FieldProblem[]> {
  const { users, roles } = namedIds(tree);
  const problems: FieldProblem[] = [];
  const found = new Set((await directory.users([...users.keys()])).map((u) => u.id));
  for (const [id, nodes] of users) {
    if (found.has(id)) continue;
    for (const node of nodes) {
      problems.push({
        field: `node_tree.${node}`,
        rule: 'option',
        message: `node "${node}": user ${id} does not exist`,
      });
    }
  }
  const knownRoles = new Set(await directory.knownRoles([...roles.keys()]));
  for (const [id, nodes] of roles) {
    if (knownRoles.has(id)) continue;
    for (const node of nodes) {
      problems.push({
        field: `node_tree.${node}`,
        rule: 'option',
        message: `node "${node}": role ${id} does not exist`,
      });
    }
  }
  return problems;
}

export function toDefinitionView(row: DefinitionRow): DefinitionView {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    category: row.category,
    version: row.version,
    status: row.status,
    form_mode: row.form_mode,
    biz_type: row.biz_type,
    form_schema: row.form_schema,
    node_tree: row.node_tree,
    starters: row.starters,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    published_at: toIsoOrNull(row.published_at),
  };
}

/** Empty lists everywhere: every active user of the tenant may start it. */
export function mayStart(starters: Starters, user: UserProfile): boolean {
  const users = starters.user_ids ?? [];
  const roles = starters.role_ids ?? [];
  const depts = starters.dept_ids ?? [];
  if (!user.active) return false;
  if (users.length === 0 && roles.length === 0 && depts.length === 0) return true;
  return (
    users.includes(user.id) ||
    roles.some((r) => user.roleIds.includes(r)) ||
    (user.deptId !== null && depts.includes(user.deptId))
  );
}

/** Problems with the business anchor type: required for business forms, absent for flow forms. */
function bizTypeProblems(
  formMode: 'flow' | 'business',
  bizType: string | null | undefined,
): FieldProblem[] {
  if (formMode === 'business' && !bizType) {
    return [
      { field: 'biz_type', rule: 'required', message: 'business definitions register a biz_type' },
    ];
  }
  if (formMode === 'flow' && bizType) {
    return [
      {
        field: 'biz_type',
        rule: 'format',
        message: 'flow-form anchors are generated (flow:<key>)',
      },
    ];
  }
  return [];
}

/** One business-audit row for a definition change, in the change's transaction. */
function auditDefinition(
  audit: BusinessAuditWriter,
  trx: BpmDb,
  principal: Principal,
  action: string,
  before: DefinitionRow | null,
  after: DefinitionRow,
): Promise<void> {
  return audit.write(trx as never, {
    tenantId: principal.tenantId,
    actorId: principal.userId,
    actorName: principal.username,
    action,
    targetType: 'definition',
    targetIds: [after.id],
    before: before && toDefinitionView(before),
    after: toDefinitionView(after),
    summary: `${action} definition ${after.key} v${after.version}`,
  });
}

/**
 * Documents past the size limits (tree-size.ts) are refused before anything stores or
 * serializes them: 40001 on the document at fault.
 */
function rejectOversized(input: { form_schema?: unknown; node_tree?: unknown }): void {
  const problems = definitionSizeProblems(input.form_schema, input.node_tree);
  if (problems.length > 0) throw AppError.validation(problems, problems[0]!.message);
}

/** Definition design: drafts, publishing with full validation, versions, suspension. */
export class DefinitionsService {
  constructor(private readonly o: DefinitionsServiceOptions) {}

  async list(principal: Principal, query: ListDefinitionsQuery) {
    const page = parsePage(query);
    const { rows, total } = await listDefinitions(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toDefinitionView), total, page);
  }

  async get(principal: Principal, id: number): Promise<DefinitionView> {
    return toDefinitionView(await this.require(this.o.db, principal.tenantId, id));
  }

  private async require(
    db: BpmDb,
    tenantId: number,
    id: number,
    lock = false,
  ): Promise<DefinitionRow> {
    const row = await findDefinition(db, tenantId, id, lock);
    if (!row) throw AppError.notFound('definition');
    return row;
  }

  private async checkBizType(
    db: BpmDb,
    tenantId: number,
    key: string,
    formMode: 'flow' | 'business',
    bizType: string | null,
  ) {
    const problems = bizTypeProblems(formMode, bizType);
    if (bizType && problems.length === 0) {
      const owner = await bizTypeOwner(db, tenantId, bizType, key);
      if (owner)
        problems.push({
          field: 'biz_type',
          rule: 'format',
          message: `biz_type is registered by ${owner}`,
        });
    }
    return problems;
  }

  async create(principal: Principal, input: CreateDefinitionInput): Promise<DefinitionView> {
    rejectOversized(input);
    const bizType = input.biz_type ?? null;
    const problems = [
      ...validateFormSchema(input.form_schema),
      ...(await this.checkBizType(
        this.o.db,
        principal.tenantId,
        input.key,
        input.form_mode,
        bizType,
      )),
    ];
    if (problems.length > 0) throw AppError.validation(problems);
    const row = await inTransaction(this.o.db, async (trx) => {
      const created = await conflictOnDuplicate(
        insertDefinition(trx, {
          tenant_id: principal.tenantId,
          key: input.key,
          name: input.name,
          category: input.category ?? null,
          version: 1,
          form_mode: input.form_mode,
          biz_type: bizType,
          form_schema: input.form_schema,
          node_tree: input.node_tree,
          starters: input.starters ?? {},
          created_by: principal.userId,
        }),
        VERSION_CONSTRAINT,
        `definition key ${input.key} already exists`,
      );
      await auditDefinition(this.o.audit, trx, principal, 'create', null, created);
      return created;
    });
    return toDefinitionView(row);
  }

  async update(
    principal: Principal,
    id: number,
    input: UpdateDefinitionInput,
  ): Promise<DefinitionView> {
    rejectOversized(input);
    return inTransaction(this.o.db, async (trx) => {
      const row = await this.require(trx, principal.tenantId, id, true);
      if (row.status !== 'draft')
        throw AppError.conflict(`only drafts change; this version is ${row.status}`);
      const formMode = input.form_mode ?? row.form_mode;
      const bizType = input.biz_type === undefined ? row.biz_type : input.biz_type;
      const problems = [
        ...(input.form_schema !== undefined ? validateFormSchema(input.form_schema) : []),
        ...(await this.checkBizType(trx, principal.tenantId, row.key, formMode, bizType)),
      ];
      if (problems.length > 0) throw AppError.validation(problems);
      const updated = await updateDraft(trx, principal.tenantId, id, {
        ...input,
        biz_type: bizType,
      });
      await auditDefinition(this.o.audit, trx, principal, 'update', row, updated);
      return toDefinitionView(updated);
    });
  }

  /**
   * Validates the whole tree against the form schema, reporting every problem with its node id;
   * archives the key's published version in the same transaction. Running instances keep the
   * version they froze.
   */
  async publish(
    principal: Principal,
    id: number,
  ): Promise<DefinitionView & { warnings: PublishWarning[] }> {
    return inTransaction(this.o.db, async (trx) => {
      const row = await this.require(trx, principal.tenantId, id, true);
      if (row.status !== 'draft' && row.status !== 'suspended') {
        throw AppError.conflict(`a ${row.status} version cannot be published`);
      }
      const schemaProblems = validateFormSchema(row.form_schema);
      const treeProblems =
        schemaProblems.length === 0
          ? validateTree(row.node_tree, row.form_schema as FormSchema)
          : [];
      const problems = [
        ...schemaProblems,
        ...treeProblems,
        ...bizTypeProblems(row.form_mode, row.biz_type),
      ];
      // Only a tree of the right shape is read for the ids its rules name.
      if (schemaProblems.length === 0 && treeProblems.length === 0) {
        const directory = this.o.directoryOf<BpmTables>(principal.tenantId, trx);
        problems.push(...(await unknownIdProblems(directory, row.node_tree as FlowNode)));
      }
      if (problems.length > 0)
        throw AppError.validation(problems, 'the definition cannot be published');
      await archivePublished(trx, principal.tenantId, row.key);
      const published = await setStatus(trx, principal.tenantId, id, 'published', true);
      await auditDefinition(this.o.audit, trx, principal, 'publish', row, published);
      const warnings = publishWarnings(row.node_tree as FlowNode, row.form_schema as FormSchema);
      return { ...toDefinitionView(published), warnings };
    });
  }

  /** A new draft copied from `id`, numbered after the key's latest version; one draft at a time. */
  async newVersion(principal: Principal, id: number): Promise<DefinitionView> {
    const source = await this.require(this.o.db, principal.tenantId, id);
    const latest = await latestVersion(this.o.db, principal.tenantId, source.key);
    if (latest.draftId !== null)
      throw AppError.conflict(`draft ${latest.draftId} of ${source.key} already exists`);
    const row = await inTransaction(this.o.db, async (trx) => {
      const created = await conflictOnDuplicate(
        insertDefinition(trx, {
          tenant_id: principal.tenantId,
          key: source.key,
          name: source.name,
          category: source.category,
          version: latest.version + 1,
          form_mode: source.form_mode,
          biz_type: source.biz_type,
          form_schema: source.form_schema,
          node_tree: source.node_tree,
          starters: source.starters,
          created_by: principal.userId,
        }),
        VERSION_CONSTRAINT,
        'another new version was created at the same time',
      );
      await auditDefinition(this.o.audit, trx, principal, 'new_version', source, created);
      return created;
    });
    return toDefinitionView(row);
  }

  /** No new instances of a suspended version; running ones go on. */
  async suspend(principal: Principal, id: number): Promise<DefinitionView> {
    return inTransaction(this.o.db, async (trx) => {
      const row = await this.require(trx, principal.tenantId, id, true);
      if (row.status !== 'published')
        throw AppError.conflict(`only a published version can be suspended`);
      const suspended = await setStatus(trx, principal.tenantId, id, 'suspended');
      await auditDefinition(this.o.audit, trx, principal, 'suspend', row, suspended);
      return toDefinitionView(suspended);
    });
  }

  /**
   * Published flow-form definitions the caller may start, in the list shape. The starter rule
   * is applied in code (it reads the caller's roles and department), so the page is cut after it.
   */
  async startable(
    principal: Principal,
    profile: UserProfile | undefined,
    query: { page?: string; page_size?: string },
  ) {
    const page = parsePage(query);
    const rows = profile ? await listPublishedFlows(this.o.db, principal.tenantId) : [];
    const mine = rows.filter((row) => mayStart(row.starters, profile!)).map(toDefinitionView);
    return pageResult(mine.slice(page.offset, page.offset + page.pageSize), mine.length, page);
  }
}
