import { pathStartRound } from './available.js';
import { findNode } from './tree.js';
import type { ApprovalNode, EngineContext, InstanceState, StartNode } from './types.js';

/**
 * Repeat approvals (the definition's `autoApproveRepeats`, set on the start node): a person who
 * already approved earlier on the path is approved by the system on a later step. `consecutive`
 * looks at the approval step just before this one, `any` at every earlier approval step of the
 * path taken since the last resubmit.
 */
export type AutoApproveRepeats = 'off' | 'consecutive' | 'any';

/** Of `userIds`, the people `node` need not ask again, in their order. */
export function repeatedApprovers(
  ctx: Pick<EngineContext, 'tree'>,
  s: InstanceState,
  node: ApprovalNode,
  userIds: number[],
): number[] {
  const mode = (ctx.tree as StartNode).autoApproveRepeats ?? 'off';
  if (mode === 'off') return [];
  const earlier = s.path
    .slice(0, s.path.lastIndexOf(node.id))
    .filter((id) => id !== node.id && findNode(ctx.tree, id)?.type === 'approval');
  const steps = new Set(mode === 'consecutive' ? earlier.slice(-1) : earlier);
  const since = pathStartRound(s);
  const approvers = new Set(
    s.tasks
      .filter(
        (t) =>
          t.kind === 'approval' &&
          t.status === 'done' &&
          t.result === 'approved' &&
          t.round >= since &&
          steps.has(t.nodeId),
      )
      .map((t) => t.assigneeId),
  );
  return userIds.filter((id) => approvers.has(id));
}
