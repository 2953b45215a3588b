import type { BpmTables } from '../bpm.tables.js';
import { randomUUID } from 'node:crypto';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { conflictOnDuplicate } from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { toIso } from '../../../platform/http/params.js';
import type { DirectoryOf } from '../bpm.ports.js';
import type { BpmDb } from '../bpm.tables.js';
import { mayStart } from '../definitions/definitions.service.js';
import {
  findDefinition,
  findPublished,
  hasSuspendedVersion,
  type DefinitionRow,
} from '../definitions/definitions.repo.js';
import {
  allNodes,
  applyAction,
  branchReadsHidden,
  startInstance,
  type Action,
  type FormData,
  type FormSchema,
} from '../engine/index.js';
import { formProblems } from '../runtime/form-input.js';
import {
  definitionOf,
  type InstanceRef,
  type InstanceRunner,
  type Loaded,
} from '../runtime/runner.js';
import {
  insertInstance,
  instanceStateOf,
  LIVE_ANCHOR_CONSTRAINT,
  reachedNodesOf,
} from '../runtime/state.repo.js';
import { fileIdsOf, holdFiles } from '../runtime/instance-files.repo.js';
import { diagramOf } from './diagram.js';
import {
  actorOf,
  hiddenFor,
  instanceDetail,
  operatorOf,
  toInstanceItem,
  type FileLinks,
  type Viewer,
} from './instance-view.js';
import { listInstances, timeline, type InstanceSort } from './instances.repo.js';
import type { InstanceDetailView, StartInput } from './instances.schema.js';

export interface InstancesServiceOptions {
  db: BpmDb;
  runner: InstanceRunner;
  /** Identity's directory of a tenant (a port). */
  directoryOf: DirectoryOf;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
  /** The files service's files of a tenant (a port): links for `file` fields. */
  filesOf: (tenantId: number) => FileLinks;
}

/** What a start needs besides the definition (the user and internal endpoints share it). */
export interface StartRequest {
  form: FormData;
  title: string;
  bizType: string;
  bizId: string;
  initiatorId: number;
  selectedAssignees: Record<string, number[]>;
  checkStarter: boolean;
}

function withoutHiddenChanges(
  details: Record<string, unknown> | null,
  hidden: Set<string>,
): Record<string, unknown> | null {
  if (!details || hidden.size === 0 || !Array.isArray(details.changes)) return details;
  const changes = (details.changes as Array<{ field: string }>).filter((c) => !hidden.has(c.field));
  return { ...details, changes };
}

/** A resume's repairs, as the business audit records them (the fields patched, not their values). */
function repairsOf(action: Action): { repairs?: Record<string, unknown> } {
  if (action.type !== 'resume') return {};
  const repairs = {
    ...(action.formPatch ? { form_patch: Object.keys(action.formPatch) } : {}),
    ...(action.assigneeIds ? { assignee_ids: action.assigneeIds } : {}),
    ...(action.branchId !== undefined ? { branch_id: action.branchId } : {}),
  };
  return Object.keys(repairs).length > 0 ? { repairs } : {};
}

/** Starting instances, reading them, and the instance-level actions. */
export class InstancesService {
  constructor(private readonly o: InstancesServiceOptions) {}

  /**
   * Who may read an instance: a platform admin, the initiator, a task holder (now or before:
   * assignee, first holder, delegator), a CC recipient, or someone who acted on it; anyone else
   * gets 404, as for an instance that does not exist. Answers the viewer with the nodes they
   * reached it through.
   */
  async viewerOf(db: BpmDb, principal: Principal, loaded: Loaded): Promise<Viewer> {
    const { state, instance } = loaded;
    const me = principal.userId;
    const held = state.tasks
      .filter((t) => t.assigneeId === me || t.originalAssigneeId === me || t.delegatorId === me)
      .map((t) => t.nodeId);
    const reached =
      loaded.reachedBy?.userId === me
        ? loaded.reachedBy.nodeIds
        : await reachedNodesOf(db, principal.tenantId, instance.id, me);
    const nodeIds = [...new Set([...held, ...reached])];
    if (!principal.platformAdmin && state.initiatorId !== me && nodeIds.length === 0)
      throw AppError.notFound('instance');
    const initiator = await this.o
      .directoryOf<BpmTables>(principal.tenantId, db)
      .profile(state.initiatorId);
    return { actor: actorOf(principal), nodeIds, initiatorName: initiator?.username ?? null };
  }

  /** Loads an instance the caller may see (by id, or by one of its tasks), with their viewer, else 404. */
  async visible(
    principal: Principal,
    ref: number | InstanceRef,
  ): Promise<{ loaded: Loaded; viewer: Viewer }> {
    const loaded = await this.o.runner.load(
      this.o.db,
      principal.tenantId,
      typeof ref === 'number' ? { instanceId: ref } : ref,
      { viewerId: principal.userId },
    );
    if (!loaded) throw AppError.notFound('instance');
    return { loaded, viewer: await this.viewerOf(this.o.db, principal, loaded) };
  }

  private async definitionToStart(principal: Principal, input: StartInput): Promise<DefinitionRow> {
    const definition =
      input.definition_id !== undefined
        ? await findDefinition(this.o.db, principal.tenantId, input.definition_id)
        : await findPublished(this.o.db, principal.tenantId, input.definition_key!);
    if (!definition) {
      if (
        input.definition_key !== undefined &&
        (await hasSuspendedVersion(this.o.db, principal.tenantId, input.definition_key))
      )
        throw AppError.conflict('the definition is suspended');
      throw AppError.notFound('definition');
    }
    if (definition.status !== 'published')
      throw AppError.conflict(`definition version is ${definition.status}`);
    if (definition.form_mode !== 'flow') {
      throw AppError.conflict(
        'business-form definitions are started by their back end (internal endpoint)',
      );
    }
    return definition;
  }

  /** Flow-form start: validated form, frozen version, generated anchor, first step, one transaction. */
  async start(principal: Principal, input: StartInput): Promise<InstanceDetailView> {
    const definition = await this.definitionToStart(principal, input);
    const form = formProblems(definition.form_schema as FormSchema, input.form);
    const started = await this.startFrom(principal.tenantId, definition, {
      form,
      title: input.title ?? definition.name,
      bizType: `flow:${definition.key}`,
      bizId: randomUUID(),
      initiatorId: principal.userId,
      selectedAssignees: input.selected_assignees ?? {},
      checkStarter: true,
    });
    return instanceDetail(
      started,
      { actor: actorOf(principal), nodeIds: [], initiatorName: principal.username },
      this.filesOf(principal),
    );
  }

  /**
   * The shared start path of the user and internal endpoints: insert, run the engine, write.
   * The start entry is the initiator's, by name, whoever called (a business back end included).
   */
  async startFrom(
    tenantId: number,
    definition: DefinitionRow,
    init: StartRequest,
  ): Promise<Loaded> {
    const { tree, schema } = this.o.runner.frozen(definition);
    return inTransaction(this.o.db, async (trx) => {
      await this.o.runner.fence(trx);
      const profile = await this.o.directoryOf<BpmTables>(tenantId, trx).profile(init.initiatorId);
      if (!profile || !profile.active)
        throw AppError.validation([
          { field: 'initiator_id', rule: 'option', message: 'no such active user' },
        ]);
      if (init.checkStarter && !mayStart(definition.starters, profile)) {
        throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, 'you may not start this definition');
      }
      const instance = await conflictOnDuplicate(
        insertInstance(trx, {
          tenant_id: tenantId,
          definition_id: definition.id,
          definition_key: definition.key,
          definition_version: definition.version,
          title: init.title,
          initiator_id: init.initiatorId,
          initiator_dept_id: profile.deptId,
          initiator_role_ids: profile.roleIds,
          biz_type: init.bizType,
          biz_id: init.bizId,
          form: init.form,
          selected_assignees: init.selectedAssignees,
        }),
        LIVE_ANCHOR_CONSTRAINT,
        'a running instance already exists for this business record',
      ).catch((err: unknown) => {
        if (err instanceof AppError && err.code === ERROR_CODES.CONFLICT)
          throw new AppError(ERROR_CODES.DUPLICATE_ANCHOR);
        throw err;
      });
      await holdFiles(trx, tenantId, instance.id, fileIdsOf(schema, init.form), []);
      const loaded: Loaded = { instance, state: instanceStateOf(instance, []), tree, schema };
      const ctx = this.o.runner.context(trx, tenantId, definitionOf(loaded));
      const result = await startInstance(ctx, {
        form: init.form,
        initiatorId: init.initiatorId,
        initiatorDeptId: profile.deptId,
        initiatorRoleIds: profile.roleIds,
        selectedAssignees: init.selectedAssignees,
      });
      return this.o.runner.apply(trx, loaded, result, {
        id: init.initiatorId,
        name: profile.username,
      });
    });
  }

  async detail(principal: Principal, id: number): Promise<InstanceDetailView> {
    const { loaded, viewer } = await this.visible(principal, id);
    return instanceDetail(loaded, viewer, this.filesOf(principal));
  }

  /** Links to the caller's tenant's files. */
  filesOf(principal: Principal): FileLinks {
    return this.o.filesOf(principal.tenantId);
  }

  /**
   * The process log. For a viewer with hidden fields, form edits of those fields are left out of
   * `details`, and a branch entry deciding on one of them does not name the branch taken (its
   * comment is null): the branch's name would tell the hidden value's range.
   */
  async timeline(principal: Principal, id: number) {
    const { loaded, viewer } = await this.visible(principal, id);
    const hidden = new Set(hiddenFor(loaded.tree, loaded.state, viewer));
    const revealing = new Set(
      allNodes(loaded.tree)
        .filter((node) => branchReadsHidden(node, hidden))
        .map((node) => node.id),
    );
    const rows = await timeline(this.o.db, principal.tenantId, id);
    return rows.map((r) => ({
      ...r,
      comment: r.action === 'branch' && revealing.has(r.node_id ?? '') ? null : r.comment,
      details: withoutHiddenChanges(r.details, hidden),
      created_at: toIso(r.created_at),
    }));
  }

  /** The frozen tree with each node's state; hidden fields removed for the viewer's own nodes. */
  async diagram(principal: Principal, id: number) {
    const { loaded, viewer } = await this.visible(principal, id);
    return diagramOf(loaded, viewer);
  }

  async my(
    principal: Principal,
    query: {
      status?: string | undefined;
      page?: string;
      page_size?: string;
    } & InstanceSort,
  ) {
    const page = parsePage(query);
    const { rows, total } = await listInstances(
      this.o.db,
      principal.tenantId,
      { status: query.status, initiator_id: principal.userId },
      page,
      { sort: query.sort, order: query.order },
    );
    return pageResult(rows.map(toInstanceItem), total, page);
  }

  /** Every instance of the tenant; the route admits platform administrators only. */
  async all(
    principal: Principal,
    query: {
      status?: string;
      definition_key?: string;
      initiator_id?: number;
      keyword?: string;
      start_time?: Date;
      end_time?: Date;
      page?: string;
      page_size?: string;
    },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listInstances(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toInstanceItem), total, page);
  }

  /** cancel / resubmit / terminate / resume: one command on the locked instance. */
  async act(principal: Principal, id: number, action: Action): Promise<InstanceDetailView> {
    // Force terminate and resume are administrative acts: audited in the same transaction.
    const audited = action.type === 'terminate' || action.type === 'resume';
    let viewer: Viewer | undefined;
    const done = await this.o.runner.act(
      principal.tenantId,
      { instanceId: id },
      operatorOf(principal),
      (ctx, current) => {
        const checked: Action =
          action.type === 'resubmit'
            ? { type: 'resubmit', form: formProblems(current.schema, action.form) }
            : action;
        return applyAction(ctx, current.state, checked, actorOf(principal));
      },
      {
        viewerId: principal.userId,
        guard: async (trx, loaded) => {
          viewer = await this.viewerOf(trx, principal, loaded);
          return true;
        },
        afterPersist: audited
          ? (trx, before, after) =>
              this.o.audit.write(trx as never, {
                tenantId: principal.tenantId,
                actorId: principal.userId,
                actorName: principal.username,
                action: action.type,
                targetType: 'instance',
                targetIds: [id],
                before: toInstanceItem(before),
                after: { ...toInstanceItem(after), ...repairsOf(action) },
                summary: `${action.type === 'terminate' ? 'terminated' : 'resumed'} instance ${id} (${before.title})`,
              })
          : undefined,
      },
    );
    return instanceDetail(done!, viewer!, this.filesOf(principal));
  }
}
