import type { Principal } from '../../../platform/auth/principal.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import {
  allNodes,
  availableActions,
  hiddenFieldsOf,
  stripHidden,
  type Actor,
  type FlowNode,
  type FormData,
  type FormSchema,
  type InstanceState,
  type TaskState,
} from '../engine/index.js';
import type { BpmFiles, FileLink } from '../bpm.ports.js';
import { fileIdsOf } from '../runtime/instance-files.repo.js';
import type { Loaded, Operator } from '../runtime/runner.js';
import type { InstanceRow, TaskRow } from '../runtime/state.repo.js';
import type { InstanceDetailView, InstanceItemView, TaskView } from './instances.schema.js';

/**
 * Who reads: the actor, and the nodes through which they reached the instance (tasks they hold
 * or held, CC records, nodes they acted on). Those nodes' `hiddenFields` are hidden from them.
 */
export interface Viewer {
  actor: Actor;
  nodeIds: string[];
  /** The initiator's name as the directory knows it (null when the user no longer exists). */
  initiatorName: string | null;
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

/** A stored task row as the API shows it (lists). */
export function toTaskView(
  row: Omit<
    TaskRow,
    'tenant_id' | 'seq' | 'added_by_sign' | 'reminded_at' | 'urged_at' | 'timeout_count'
  >,
): TaskView {
  return {
    id: row.id,
    instance_id: row.instance_id,
    node_id: row.node_id,
    node_name: row.node_name,
    kind: row.kind,
    assignee_id: row.assignee_id,
    original_assignee_id: row.original_assignee_id,
    delegator_id: row.delegator_id,
    on_behalf_of_id: row.on_behalf_of_id,
    status: row.status,
    result: row.result,
    round: row.round,
    comment: row.comment,
    created_at: toIso(row.created_at),
    due_at: toIsoOrNull(row.due_at),
    finished_at: toIsoOrNull(row.finished_at),
  };
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A task of an engine state as the API shows it (answers built from a command's result). */
function taskViewOf(task: TaskState, instanceId: number, names: Map<string, string>): TaskView {
  return {
    id: task.id,
    instance_id: instanceId,
    node_id: task.nodeId,
    node_name: names.get(task.nodeId) ?? task.nodeId,
    kind: task.kind,
    assignee_id: task.assigneeId,
    original_assignee_id: task.originalAssigneeId,
    delegator_id: task.delegatorId,
    on_behalf_of_id: task.onBehalfOfId,
    status: task.status,
    result: task.result,
    round: task.round,
    comment: task.comment,
    created_at: new Date(task.createdAt).toISOString(),
    due_at: isoOrNull(task.dueAt),
    finished_at: isoOrNull(task.finishedAt),
  };
}

/** The form keys hidden from `viewer`: none for the initiator, who wrote the form. */
export function hiddenFor(tree: FlowNode, state: InstanceState, viewer: Viewer): string[] {
  if (viewer.actor.userId === state.initiatorId) return [];
  return hiddenFieldsOf(tree, viewer.nodeIds);
}

/** The form as `viewer` may see it: fields hidden by the nodes they reached it through removed. */
export function visibleForm(tree: FlowNode, state: InstanceState, viewer: Viewer): FormData {
  return stripHidden(state.form, hiddenFor(tree, state, viewer));
}

/** The caller's own pending task on the instance, whose actions the detail lists too. */
const ownPendingTask = (state: InstanceState, actor: Actor) =>
  actor.system
    ? undefined
    : state.tasks.find((t) => t.status === 'pending' && t.assigneeId === actor.userId);

/** Fresh links to the tenant's files, by id (the files service's, through a port). */
export type FileLinks = Pick<BpmFiles, 'links'>;

/**
 * The files of the `file` fields in `form` (the viewer's visible form: a field hidden from them
 * gets no links) with fresh signed links, by field key; a file deleted since is left out.
 */
async function fileLinksOf(
  schema: FormSchema,
  form: FormData,
  files: FileLinks,
): Promise<Record<string, FileLink[]>> {
  const ids = fileIdsOf(schema, form);
  if (ids.length === 0) return {};
  const links = new Map((await files.links(ids)).map((link) => [link.id, link]));
  return Object.fromEntries(
    schema.fields
      .filter((f) => f.type === 'file' && Array.isArray(form[f.key]))
      .map((f) => [f.key, (form[f.key] as number[]).flatMap((id) => links.get(id) ?? [])]),
  );
}

/** The instance detail for `viewer`, from a loaded (or just produced) state. */
export async function instanceDetail(
  loaded: Loaded,
  viewer: Viewer,
  files: FileLinks,
): Promise<InstanceDetailView> {
  const { instance, state, tree } = loaded;
  const names = new Map(allNodes(tree).map((n) => [n.id, n.name]));
  const form = visibleForm(tree, state, viewer);
  return {
    ...toInstanceItem(instance),
    initiator_name: viewer.initiatorName,
    form,
    files: await fileLinksOf(loaded.schema, form, files),
    tasks: state.tasks.map((t) => taskViewOf(t, instance.id, names)),
    current_node_ids: [
      ...new Set(state.tasks.filter((t) => t.status === 'pending').map((t) => t.nodeId)),
    ],
    path: state.path,
    actions: availableActions(tree, state, viewer.actor, ownPendingTask(state, viewer.actor)?.id),
  };
}

/** The task detail: the task's fields, its instance and the caller's actions on it. */
export async function taskDetail(loaded: Loaded, viewer: Viewer, taskId: number, files: FileLinks) {
  const instance = await instanceDetail(loaded, viewer, files);
  const task = instance.tasks.find((t) => t.id === taskId)!;
  return {
    ...task,
    instance,
    actions: availableActions(loaded.tree, loaded.state, viewer.actor, taskId),
  };
}
