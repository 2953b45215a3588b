import { AppError } from '../../../platform/errors.js';
import { emptyAssigneeDetail, type StartInit } from './advance.js';
import {
  resolveAssignees,
  resolveNodeAssignees,
  type AssigneeResolution,
  type AssigneeSource,
} from './assignees.js';
import { chooseBranch } from './condition.js';
import { standInFor, withStandIns, type StandIn } from './stand-ins.js';
import { findNode, firstNodeOfBranch, nextNodeAfter } from './tree.js';
import type {
  ApprovalMode,
  Condition,
  EmptyAssigneeStrategy,
  EngineContext,
  FlowNode,
  InstanceState,
  SuspendReason,
} from './types.js';

/**
 * Dry runs and explanations (API.md: simulate, task explain). Nothing is written: these read the
 * tree and the directory only. Field names are snake_case because they are the response shape.
 */

export interface SimulatedBranch {
  /** The branch node. */
  node_id: string;
  branch_id: string;
  /** null for a default branch taken because nothing else matched. */
  condition: Condition | null;
  inputs: Record<string, unknown>;
  /** null when the evaluation failed. */
  result: boolean | null;
}

export interface SimulatedNode {
  node_id: string;
  node_name: string;
  type: 'approval' | 'cc';
  /** approval nodes; null for cc. */
  mode: ApprovalMode | null;
  /** Who would get tasks (or copies): from the rule, or from the fallback users. */
  assignees: number[];
  /** How the node's rule resolved. */
  resolution: AssigneeResolution;
  /** The empty-assignee strategy that would fire, null when the rule finds someone. */
  strategy: EmptyAssigneeStrategy | null;
  /** fallback_users: how the fallback list resolved. */
  fallback: AssigneeResolution | null;
  /** Assignees out of office whose tasks would open for a stand-in (`assignees` has the latter). */
  stand_ins: StandInView[];
}

/** "Bob → Carol, out of office until 14 Aug": the chain followed, as the API shows it. */
export interface StandInView {
  user_id: number;
  stand_in_id: number;
  /** Each absence followed: who was away, for whom, until when (ISO 8601). */
  chain: { user_id: number; stand_in_id: number; until: string }[];
}

const standInView = (s: StandIn): StandInView => ({
  user_id: s.userId,
  stand_in_id: s.standInId,
  chain: s.chain.map((a) => ({
    user_id: a.userId,
    stand_in_id: a.standInId,
    until: new Date(a.until).toISOString(),
  })),
});

export interface SimulatedFailure {
  node_id: string;
  code: SuspendReason['code'];
  detail: string;
  /** condition_failed: the field whose value failed the evaluation, if one did. */
  field?: string;
}

export interface Simulation {
  path: string[];
  branches: SimulatedBranch[];
  nodes: SimulatedNode[];
  failures: SimulatedFailure[];
}

/** Without `absences` (the pre-flight), nobody is out of office. */
type ReadContext = Pick<EngineContext, 'tree' | 'directory'> &
  Partial<Pick<EngineContext, 'absences'>>;

/**
 * The route an instance started with `init` would take if every approval node were approved:
 * each node entered, each condition evaluated, each approval and cc node's assignees. Stops at
 * the first node that would suspend the instance, reporting it in `failures`; with `pastEmpty`,
 * walks on past a step without assignees (the pre-flight wants every problem of the route).
 */
export async function simulate(
  ctx: ReadContext,
  init: StartInit,
  { pastEmpty = false } = {},
): Promise<Simulation> {
  const source: AssigneeSource = {
    form: init.form,
    initiatorId: init.initiatorId,
    initiatorDeptId: init.initiatorDeptId,
    selectedAssignees: init.selectedAssignees,
  };
  const conditionInput = {
    form: init.form,
    initiator: { dept_id: init.initiatorDeptId, role_ids: init.initiatorRoleIds },
  };
  const out: Simulation = { path: [], branches: [], nodes: [], failures: [] };
  let node: FlowNode | null = ctx.tree;
  while (node) {
    out.path.push(node.id);
    if (node.type === 'branch') {
      const choice = chooseBranch(node, conditionInput);
      for (const e of choice.evaluations) out.branches.push({ node_id: node.id, ...e });
      if (!choice.ok) {
        out.failures.push({
          node_id: node.id,
          code: 'condition_failed',
          detail: choice.error,
          ...(choice.field ? { field: choice.field } : {}),
        });
        break;
      }
      node = firstNodeOfBranch(ctx.tree, node, choice.branch.id);
      continue;
    }
    if (node.type === 'cc') {
      const { userIds, resolution } = await resolveAssignees(
        node.assignee,
        source,
        node.id,
        ctx.directory,
      );
      out.nodes.push({
        node_id: node.id,
        node_name: node.name,
        type: 'cc',
        mode: null,
        assignees: userIds,
        resolution,
        strategy: null,
        fallback: null,
        stand_ins: [],
      });
    } else if (node.type === 'approval') {
      const r = await resolveNodeAssignees(node, source, ctx.directory);
      const { assignments, standIns } = ctx.absences
        ? await withStandIns({ directory: ctx.directory, absences: ctx.absences }, r.userIds, {
            initiatorId: init.initiatorId,
            allowInitiator: node.allowInitiator === true,
          })
        : { assignments: r.userIds.map((assigneeId) => ({ assigneeId })), standIns: [] };
      out.nodes.push({
        node_id: node.id,
        node_name: node.name,
        type: 'approval',
        mode: node.mode,
        assignees: assignments.map((a) => a.assigneeId),
        resolution: r.resolution,
        strategy: r.strategy,
        fallback: r.fallback,
        stand_ins: standIns.map(standInView),
      });
      if (r.outcome === 'suspend') {
        out.failures.push({
          node_id: node.id,
          code: 'empty_assignee',
          detail: emptyAssigneeDetail(r),
        });
        if (!pastEmpty) break;
      }
    }
    node = nextNodeAfter(ctx.tree, node.id);
  }
  return out;
}

export interface TaskExplanation extends Omit<SimulatedNode, 'type' | 'resolution'> {
  /** null for a resubmit task: it always goes to the initiator. */
  resolution: AssigneeResolution | null;
  task_id: number;
  assignee_id: number;
  /** How the task came to exist: the node's rule, its fallback users, add-sign, or a resubmit. */
  source: 'rule' | 'fallback' | 'add_sign' | 'resubmit';
  /** Transferred: `original_assignee_id` is the first holder. */
  transferred: boolean;
  original_assignee_id: number | null;
  /** Delegated: the current assignee holds it for `delegator_id`. */
  delegated: boolean;
  delegator_id: number | null;
  /** Opened for a stand-in: the person out of office, and their absence if it still holds. */
  on_behalf_of_id: number | null;
  stand_in: StandInView | null;
  /**
   * Whether the task's first holder is among the node's assignees as the rule resolves now
   * (it may have changed since the task was opened).
   */
  in_resolution: boolean;
}

/**
 * Why a task's assignee is who they are: its node resolved now, as simulate reports a node, plus
 * whether the task came from add-sign, a transfer or a delegation.
 */
export async function explainTask(
  ctx: ReadContext,
  state: InstanceState,
  taskId: number,
): Promise<TaskExplanation> {
  const task = state.tasks.find((t) => t.id === taskId);
  if (!task) throw AppError.notFound('task');
  const node = findNode(ctx.tree, task.nodeId);
  const firstHolder =
    task.onBehalfOfId ?? task.originalAssigneeId ?? task.delegatorId ?? task.assigneeId;
  const away =
    task.onBehalfOfId !== null && ctx.absences
      ? await standInFor({ directory: ctx.directory, absences: ctx.absences }, task.onBehalfOfId, {
          initiatorId: state.initiatorId,
          allowInitiator: true,
        })
      : null;
  const about = {
    task_id: task.id,
    assignee_id: task.assigneeId,
    transferred: task.originalAssigneeId !== null,
    original_assignee_id: task.originalAssigneeId,
    delegated: task.delegatorId !== null,
    delegator_id: task.delegatorId,
    on_behalf_of_id: task.onBehalfOfId,
    stand_in: away ? standInView(away) : null,
  };
  if (task.kind === 'resubmit' || node?.type !== 'approval') {
    return {
      node_id: task.nodeId,
      node_name: node?.name ?? task.nodeId,
      mode: null,
      assignees: [state.initiatorId],
      resolution: null,
      strategy: null,
      fallback: null,
      stand_ins: [],
      ...about,
      source: 'resubmit',
      in_resolution: firstHolder === state.initiatorId,
    };
  }
  const r = await resolveNodeAssignees(node, state, ctx.directory);
  const fromFallback = r.fallback?.userIds.includes(firstHolder) ?? false;
  return {
    node_id: node.id,
    node_name: node.name,
    mode: node.mode,
    assignees: r.userIds,
    resolution: r.resolution,
    strategy: r.strategy,
    fallback: r.fallback,
    stand_ins: [],
    ...about,
    source: task.addedBySign ? 'add_sign' : fromFallback ? 'fallback' : 'rule',
    in_resolution: r.userIds.includes(firstHolder),
  };
}
