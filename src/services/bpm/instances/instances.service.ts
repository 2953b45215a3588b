import { randomUUID } from 'node:crypto';
import { writeBusinessAudit } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { conflictOnDuplicate } from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/http/errors.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import { createTenantDirectory } from '../../identity/assignee-directory.js';
import type { IdentityDb, IdentityTables } from '../../identity/identity.tables.js';
import type { BpmDb } from '../bpm.tables.js';
import { mayStart } from '../definitions/definitions.service.js';
import {
  findDefinition,
  findPublished,
  type DefinitionRow,
} from '../definitions/definitions.repo.js';
import { applyAction } from '../engine/actions.js';
import { startInstance } from '../engine/advance.js';
import { availableActions } from '../engine/available.js';
import { validateForm } from '../engine/form.js';
import { hiddenFieldsOf, stripHidden } from '../engine/hidden.js';
import type {
  Action,
  Actor,
  FlowNode,
  FormData,
  FormSchema,
  InstanceState,
} from '../engine/types.js';
import {
  findInstance,
  insertInstance,
  instanceStateOf,
  instanceTasks,
  LIVE_ANCHOR_CONSTRAINT,
  type InstanceRow,
  type TaskRow,
} from './instances.repo.js';
import type {
  InstanceDetailView,
  InstanceItemView,
  StartInput,
  TaskView,
} from './instances.schema.js';
import { isParticipant, listInstances, timeline } from './queries.repo.js';
import type { InstanceRunner, Operator } from './runner.js';

export interface InstancesServiceOptions {
  db: BpmDb;
  runner: InstanceRunner;
}

export const actorOf = (p: Principal): Actor => ({
  userId: p.userId,
  platformAdmin: p.platformAdmin,
});
export const operatorOf = (p: Principal): Operator => ({ id: p.userId, name: p.username });

export function toInstanceItem(row: InstanceRow): InstanceItemView {
  return {
    id: row.id,
    title: row.title,
    definition_id: row.definition_id,
    definition_key: row.definition_key,
    definition_version: row.definition_version,
    status: row.status,
    initiator_id: row.initiator_id,
    biz_type: row.biz_type,
    biz_id: row.biz_id,
    round: row.round,
    suspend_reason: row.suspend_reason,
    created_at: toIso(row.created_at),
    finished_at: toIsoOrNull(row.finished_at),
  };
}

export function toTaskView(row: TaskRow): TaskView {
  return {
    id: row.id,
    instance_id: row.instance_id,
    node_id: row.node_id,
    node_name: row.node_name,
    kind: row.kind,
    assignee_id: row.assignee_id,
    original_assignee_id: row.original_assignee_id,
    delegator_id: row.delegator_id,
    status: row.status,
    result: row.result,
    round: row.round,
    comment: row.comment,
    created_at: toIso(row.created_at),
    due_at: toIsoOrNull(row.due_at),
    finished_at: toIsoOrNull(row.finished_at),
  };
}

/**
 * The form as `viewer` may see it: fields hidden by the nodes the viewer acts on are removed
 * (the initiator, who wrote the form, sees all of it).
 */
export function visibleForm(tree: FlowNode, state: InstanceState, viewerId: number): FormData {
  if (viewerId === state.initiatorId) return state.form;
  const ownNodes = state.tasks
    .filter(
      (t) =>
        t.assigneeId === viewerId ||
        t.originalAssigneeId === viewerId ||
        t.delegatorId === viewerId,
    )
    .map((t) => t.nodeId);
  return stripHidden(state.form, hiddenFieldsOf(tree, ownNodes));
}

export function formProblems(schema: FormSchema, input: unknown): FormData {
  const checked = validateForm(schema, input);
  if (!checked.ok)
    throw new AppError(ERROR_CODES.FORM_INVALID, undefined, { fields: checked.problems });
  return checked.form;
}

/** Starting instances, reading them, and the instance-level actions. */
export class InstancesService {
  constructor(private readonly o: InstancesServiceOptions) {}

  private async definitionToStart(principal: Principal, input: StartInput): Promise<DefinitionRow> {
    const definition =
      input.definition_id !== undefined
        ? await findDefinition(this.o.db, principal.tenantId, input.definition_id)
        : await findPublished(this.o.db, principal.tenantId, input.definition_key!);
    if (!definition) throw AppError.notFound('definition');
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
    const schema = definition.form_schema as FormSchema;
    const form = formProblems(schema, input.form);
    return this.startFrom(principal.tenantId, definition, operatorOf(principal), {
      form,
      title: input.title ?? definition.name,
      bizType: `flow:${definition.key}`,
      bizId: randomUUID(),
      initiatorId: principal.userId,
      selectedAssignees: input.selected_assignees ?? {},
      checkStarter: true,
    }).then(({ instance, state, tree }) =>
      this.detailOf(instance, state, tree, actorOf(principal)),
    );
  }

  /** The shared start path of the user and internal endpoints. */
  async startFrom(
    tenantId: number,
    definition: DefinitionRow,
    operator: Operator,
    init: {
      form: FormData;
      title: string;
      bizType: string;
      bizId: string;
      initiatorId: number;
      selectedAssignees: Record<string, number[]>;
      checkStarter: boolean;
    },
  ) {
    const tree = definition.node_tree as FlowNode;
    const schema = definition.form_schema as FormSchema;
    return inTransaction(this.o.db, async (trx) => {
      const profile = await createTenantDirectory(
        trx.withTables<IdentityTables>() as unknown as IdentityDb,
        tenantId,
      ).profile(init.initiatorId);
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
      const before = instanceStateOf(instance, []);
      const ctx = this.o.runner.context(trx, tenantId, tree, schema);
      const result = await startInstance(ctx, {
        form: init.form,
        initiatorId: init.initiatorId,
        initiatorDeptId: profile.deptId,
        initiatorRoleIds: profile.roleIds,
        selectedAssignees: init.selectedAssignees,
      });
      const saved = await this.o.runner.persist(trx, instance, tree, before, result, operator);
      const state = instanceStateOf(saved.instance, await instanceTasks(trx, instance.id));
      return { instance: saved.instance, state, tree };
    });
  }

  async detailOf(
    instance: InstanceRow,
    state: InstanceState,
    tree: FlowNode,
    viewer: Actor,
  ): Promise<InstanceDetailView> {
    const tasks = await instanceTasks(this.o.db, instance.id);
    return {
      ...toInstanceItem(instance),
      form: visibleForm(tree, state, viewer.userId),
      tasks: tasks.map(toTaskView),
      current_node_ids: [
        ...new Set(state.tasks.filter((t) => t.status === 'pending').map((t) => t.nodeId)),
      ],
      path: state.path,
      actions: availableActions(tree, state, viewer),
    };
  }

  /** Loads an instance the caller may see (participant or platform admin), else 404. */
  async visible(principal: Principal, id: number) {
    const instance = await findInstance(this.o.db, principal.tenantId, id);
    if (!instance) throw AppError.notFound('instance');
    if (
      !principal.platformAdmin &&
      !(await isParticipant(this.o.db, principal.tenantId, id, principal.userId))
    ) {
      throw AppError.notFound('instance');
    }
    const definition = await findDefinition(this.o.db, principal.tenantId, instance.definition_id);
    const tree = definition!.node_tree as FlowNode;
    const state = instanceStateOf(instance, await instanceTasks(this.o.db, id));
    return { instance, state, tree };
  }

  async detail(principal: Principal, id: number): Promise<InstanceDetailView> {
    const { instance, state, tree } = await this.visible(principal, id);
    return this.detailOf(instance, state, tree, actorOf(principal));
  }

  async timeline(principal: Principal, id: number) {
    await this.visible(principal, id);
    const rows = await timeline(this.o.db, principal.tenantId, id);
    return rows.map((r) => ({ ...r, created_at: toIso(r.created_at) }));
  }

  /** The frozen tree with each node's state; hidden fields removed for the viewer's own nodes. */
  async diagram(principal: Principal, id: number) {
    const { state, tree } = await this.visible(principal, id);
    const pending = new Set(state.tasks.filter((t) => t.status === 'pending').map((t) => t.nodeId));
    const entered = new Set(state.path);
    const finished = state.status !== 'running' && state.status !== 'suspended';
    const mark = (node: FlowNode | null | undefined): unknown => {
      if (!node) return null;
      const stateOf = pending.has(node.id)
        ? 'active'
        : entered.has(node.id)
          ? 'done'
          : finished
            ? 'skipped'
            : 'pending';
      const out: Record<string, unknown> = { ...node, state: stateOf, child: mark(node.child) };
      if (node.type === 'branch') {
        out.branches = node.branches.map((b) => ({ ...b, child: mark(b.child) }));
      }
      return out;
    };
    return {
      tree: mark(tree),
      path: state.path,
      status: state.status,
      form: visibleForm(tree, state, principal.userId),
    };
  }

  async my(
    principal: Principal,
    query: { status?: string | undefined; page?: string; page_size?: string },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listInstances(
      this.o.db,
      principal.tenantId,
      { status: query.status, initiator_id: principal.userId },
      page,
    );
    return pageResult(rows.map(toInstanceItem), total, page);
  }

  async all(
    principal: Principal,
    query: {
      status?: string;
      definition_key?: string;
      initiator_id?: number;
      page?: string;
      page_size?: string;
    },
  ) {
    if (!principal.platformAdmin) throw AppError.forbidden('platform administrators only');
    const page = parsePage(query);
    const { rows, total } = await listInstances(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toInstanceItem), total, page);
  }

  /** cancel / resubmit / terminate / resume: one engine action on the locked instance. */
  async act(principal: Principal, id: number, action: Action): Promise<InstanceDetailView> {
    await this.visible(principal, id);
    // Force terminate and resume are administrative acts: audited in the same transaction.
    const audited = action.type === 'terminate' || action.type === 'resume';
    const done = await this.o.runner.act(
      principal.tenantId,
      id,
      operatorOf(principal),
      (ctx, current) => {
        const checked: Action =
          action.type === 'resubmit'
            ? { type: 'resubmit', form: formProblems(current.schema, action.form) }
            : action;
        return applyAction(ctx, current.state, checked, actorOf(principal));
      },
      {
        afterPersist: audited
          ? (trx, before, after) =>
              writeBusinessAudit(trx as never, {
                tenantId: principal.tenantId,
                actorId: principal.userId,
                actorName: principal.username,
                action: action.type,
                targetType: 'instance',
                targetIds: [id],
                before: toInstanceItem(before),
                after: toInstanceItem(after),
                summary: `${action.type === 'terminate' ? 'terminated' : 'resumed'} instance ${id} (${before.title})`,
              })
          : undefined,
      },
    );
    return this.detailOf(done!.instance, done!.state, done!.tree, actorOf(principal));
  }
}
