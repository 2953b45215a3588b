import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { notAllowed, type Step } from './action-checks.js';
import { advance, logEffect, openNodeTasks } from './advance.js';
import { checkDirectoryFields } from './directory-fields.js';
import { checkFileFields } from './file-fields.js';
import { patchForm } from './edits.js';
import { findNode, firstNodeOfBranch } from './tree.js';
import type {
  Action,
  Actor,
  Branch,
  Effect,
  EngineContext,
  EngineResult,
  FlowNode,
  InstanceState,
} from './types.js';

/**
 * A platform admin's resume of a suspended instance, with the repairs BPM.md lists: without one
 * the node is evaluated again (and may suspend again); with them the instance goes on.
 */

async function walkOn(
  ctx: EngineContext,
  s: InstanceState,
  node: FlowNode | null,
  effects: Effect[],
): Promise<EngineResult> {
  const next = await advance(ctx, s, node);
  return { state: next.state, effects: [...effects, ...next.effects] };
}

/** Re-evaluates the node the instance stopped at; it may suspend again. */
export async function resume({ ctx, s, action, actor }: Step<'resume'>) {
  if (!actor.platformAdmin || actor.system) throw notAllowed('only a platform admin resumes');
  if (s.status !== 'suspended' || !s.suspendReason)
    throw AppError.conflict('the instance is not suspended');
  const nodeId = s.suspendReason.node_id;
  const node = findNode(ctx.tree, nodeId);
  if (!node) throw new Error(`suspended at unknown node ${nodeId}`);
  const repairs = await checkRepairs(ctx, s, node, action, actor);
  const effects: Effect[] = [
    logEffect(
      ctx,
      nodeId,
      'resume',
      actor.userId,
      action.comment ?? null,
      s.round,
      repairs.details,
    ),
  ];
  if (repairs.patched) {
    s.form = repairs.patched.form;
    if (repairs.patched.changes.length > 0) {
      const changes = repairs.patched.changes;
      effects.push(logEffect(ctx, nodeId, 'edit', actor.userId, null, s.round, { changes }));
    }
  }
  // The node was entered (and recorded) when it suspended; entering it again records it again.
  if (s.path.at(-1) === nodeId) s.path.pop();
  if (repairs.assignees && node.type === 'approval') {
    s.path.push(node.id);
    openNodeTasks(
      ctx,
      s,
      node,
      repairs.assignees.map((assigneeId) => ({ assigneeId, onBehalfOfId: null })),
      effects,
    );
    return { state: s, effects };
  }
  if (repairs.branch && node.type === 'branch') {
    s.path.push(node.id);
    const branch = repairs.branch;
    effects.push(logEffect(ctx, node.id, 'branch', actor.userId, branch.name, s.round));
    return walkOn(ctx, s, firstNodeOfBranch(ctx.tree, node, branch.id), effects);
  }
  return walkOn(ctx, s, node, effects);
}

/**
 * A resume's repairs, checked before anything changes: the patch against the frozen schema
 * (40002; unknown keys too), the people (active users of the tenant, not the initiator unless
 * the step allows it; only for a step that suspended for want of approvers) and the branch (one
 * of the node's, only where the route could not be decided). Answers what to apply and the
 * `details` the resume entry records.
 */
async function checkRepairs(
  ctx: EngineContext,
  s: InstanceState,
  node: FlowNode,
  action: Extract<Action, { type: 'resume' }>,
  actor: Actor,
) {
  const refuse = (field: string, message: string) =>
    AppError.validation([{ field, rule: 'option', message }], message);
  const details: Record<string, unknown> = {};
  let patched: ReturnType<typeof patchForm> | null = null;
  if (action.formPatch) {
    const known = new Set(ctx.schema.fields.map((f) => f.key));
    const unknown = Object.keys(action.formPatch).filter((key) => !known.has(key));
    if (unknown.length > 0) {
      throw new AppError(ERROR_CODES.FORM_INVALID, undefined, {
        fields: unknown.map((key) => ({
          field: `form_patch.${key}`,
          rule: 'option',
          message: `${key} is not a field of the form`,
        })),
      });
    }
    patched = patchForm(ctx.schema, s.form, action.formPatch);
    const keys = Object.keys(action.formPatch);
    await checkDirectoryFields(ctx.directory, ctx.schema, patched.form, keys);
    await checkFileFields(ctx.files, ctx.schema, patched.form, {
      actorId: actor.userId,
      before: s.form,
      keys,
    });
    details.form_patch = patched.changes.map((c) => c.field);
  }
  let assignees: number[] | null = null;
  if (action.assigneeIds) {
    if (node.type !== 'approval' || s.suspendReason?.code !== 'empty_assignee') {
      throw refuse('assignee_ids', 'only a step that stopped for want of approvers takes people');
    }
    const wanted = [...new Set(action.assigneeIds)];
    const found = new Map((await ctx.directory.users(wanted)).map((u) => [u.id, u]));
    for (const id of wanted) {
      if (!found.get(id)?.active) throw refuse('assignee_ids', `user ${id} is not an active user`);
      if (id === s.initiatorId && node.allowInitiator !== true) {
        throw refuse('assignee_ids', 'the initiator may not approve their own request');
      }
    }
    if (wanted.length === 0) throw refuse('assignee_ids', 'name at least one person');
    assignees = wanted;
    details.assignee_ids = wanted;
  }
  let branch: Branch | null = null;
  if (action.branchId !== undefined) {
    if (node.type !== 'branch') {
      throw refuse('branch_id', 'only a branch node that could not decide takes a branch');
    }
    branch = node.branches.find((b) => b.id === action.branchId) ?? null;
    if (!branch) throw refuse('branch_id', `node ${node.id} has no branch ${action.branchId}`);
    details.branch_id = branch.id;
  }
  return {
    patched,
    assignees,
    branch,
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}
