import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import {
  INITIATOR,
  approval,
  chain,
  logs,
  pendingOf,
  person,
  start,
  testContext,
  users,
} from './directory.test-support.js';
import type { FlowNode, InstanceState, StartNode } from './types.js';

/** A tree whose start node sets `autoApproveRepeats`. */
function tree(mode: StartNode['autoApproveRepeats'], ...steps: FlowNode[]) {
  return chain({ ...start(), autoApproveRepeats: mode } as StartNode, ...steps);
}

async function run(root: FlowNode) {
  const ctx = testContext(root);
  const { state } = await startInstance(ctx, {
    form: {},
    initiatorId: INITIATOR,
    initiatorDeptId: 2,
    initiatorRoleIds: [],
    selectedAssignees: {},
  });
  const approveBy = async (s: InstanceState, user: number) =>
    (
      await applyAction(
        ctx,
        s,
        { type: 'approve', taskId: pendingOf(s.tasks, user).id },
        person(user),
      )
    ).state;
  return { ctx, state, approveBy };
}

describe('repeat approvals (autoApproveRepeats)', () => {
  it('consecutive: the approver of the step just before is approved by the system, logged as such', async () => {
    const { ctx, state, approveBy } = await run(
      tree(
        'consecutive',
        approval('a', users(1)),
        approval('b', users(1, 2)),
        approval('c', users(3)),
      ),
    );
    const after = await applyAction(
      ctx,
      state,
      { type: 'approve', taskId: pendingOf(state.tasks, 1).id },
      person(1),
    );
    const b = after.state.tasks.filter((t) => t.nodeId === 'b');
    expect(b.map((t) => [t.assigneeId, t.status, t.result])).toEqual([
      [1, 'done', 'auto_approved'],
      [2, 'pending', null],
    ]);
    expect(logs(after.effects).find((l) => l.action === 'auto_approve')).toMatchObject({
      nodeId: 'b',
      operatorId: 0,
      comment: 'user 1 approved earlier on this path',
    });
    expect((await approveBy(after.state, 2)).currentNodeId).toBe('c');
  });

  it('passes an `or` step at once when one of its people approved before', async () => {
    const { state, approveBy } = await run(
      tree(
        'consecutive',
        approval('a', users(1)),
        approval('b', users(2, 1), { mode: 'or' }),
        approval('c', users(3)),
      ),
    );
    const s = await approveBy(state, 1);
    expect(s.currentNodeId).toBe('c');
    expect(s.tasks.filter((t) => t.nodeId === 'b').map((t) => t.assigneeId)).toEqual([1]);
  });

  it('consecutive looks one step back only; any looks along the whole path', async () => {
    const steps = () => [approval('a', users(1)), approval('b', users(2)), approval('c', users(1))];
    const consecutive = await run(tree('consecutive', ...steps()));
    let s = await consecutive.approveBy(consecutive.state, 1);
    s = await consecutive.approveBy(s, 2);
    expect(s.currentNodeId).toBe('c');
    expect(pendingOf(s.tasks, 1).nodeId).toBe('c');
    const any = await run(tree('any', ...steps()));
    let t = await any.approveBy(any.state, 1);
    t = await any.approveBy(t, 2);
    expect(t.status).toBe('approved');
  });

  it('is off by default', async () => {
    const { state, approveBy } = await run(
      chain(start(), approval('a', users(1)), approval('b', users(1))),
    );
    expect(pendingOf((await approveBy(state, 1)).tasks, 1).nodeId).toBe('b');
  });
});
