import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance, type StartInit } from './advance.js';
import { explainTask, simulate } from './simulate.js';
import {
  DEFAULT_DIRECTORY,
  approval,
  branch,
  cc,
  chain,
  pendingOf,
  person,
  start,
  testContext,
  users,
} from './directory.test-support.js';
import type { FlowNode } from './types.js';

const init = (over: Partial<StartInit> = {}): StartInit => ({
  form: { amount: 2_000_000 },
  initiatorId: 30,
  initiatorDeptId: 2,
  initiatorRoleIds: [],
  selectedAssignees: {},
  ...over,
});

/** BPM.md's sample: leader (or) → by amount {big: cfo (roles, and) | other} → HR copy. */
function sample(): FlowNode {
  const leader = approval('leader', { type: 'dept_leader', source: 'initiator' }, { mode: 'or' });
  const byAmount = branch('amount_check', [
    {
      id: 'big',
      name: 'Over 10 000',
      condition: { field: 'amount', op: 'gt', value: 1_000_000 },
      child: approval('cfo', { type: 'roles', roleIds: [7] }),
    },
    { id: 'other', name: 'Otherwise', default: true, child: null },
  ]);
  return chain(start(), leader, byAmount, cc('notify_hr', users(7)));
}

/** A context whose task-id source fails: a dry run must open no tasks. */
const readOnly = (tree: FlowNode) => ({
  ...testContext(tree),
  newTaskId: () => {
    throw new Error('simulate opened a task');
  },
});

describe('simulate', () => {
  it('walks the whole route, reporting conditions, assignees and how they were found', async () => {
    const result = await simulate(readOnly(sample()), init());
    expect(result.path).toEqual(['start', 'leader', 'amount_check', 'cfo', 'notify_hr']);
    expect(result.branches).toEqual([
      {
        node_id: 'amount_check',
        branch_id: 'big',
        condition: { field: 'amount', op: 'gt', value: 1_000_000 },
        inputs: { amount: 2_000_000 },
        result: true,
      },
    ]);
    expect(result.nodes.map((n) => [n.node_id, n.type, n.assignees, n.strategy])).toEqual([
      ['leader', 'approval', [22], null],
      ['cfo', 'approval', [5, 6], null],
      ['notify_hr', 'cc', [7], null],
    ]);
    expect(result.nodes[0]?.resolution).toMatchObject({
      rule: 'dept_leader',
      deptId: 2,
      leaderDeptId: 2,
    });
    expect(result.nodes[1]?.resolution.dropped).toEqual([{ userId: 99, reason: 'inactive' }]);
    expect(result.failures).toEqual([]);
  });

  it('reports the default branch taken when no condition matches', async () => {
    const result = await simulate(readOnly(sample()), init({ form: { amount: 10 } }));
    expect(result.path).toEqual(['start', 'leader', 'amount_check', 'notify_hr']);
    expect(result.branches.map((b) => [b.branch_id, b.result])).toEqual([
      ['big', false],
      ['other', true],
    ]);
  });

  it('stops at a condition that would fail, reporting it', async () => {
    const result = await simulate(readOnly(sample()), init({ form: {} }));
    expect(result.path).toEqual(['start', 'leader', 'amount_check']);
    expect(result.branches[0]?.result).toBeNull();
    expect(result.failures).toEqual([
      {
        node_id: 'amount_check',
        code: 'condition_failed',
        detail: 'branch big: field amount is missing',
        field: 'amount',
      },
    ]);
  });

  it('names the empty-assignee strategy that would fire and carries on past auto_pass and fallbacks', async () => {
    const tree = chain(
      start(),
      approval('skip', users(99), { emptyAssignee: { strategy: 'auto_pass' } }),
      approval('fb', users(99), { emptyAssignee: { strategy: 'fallback_users', userIds: [8] } }),
      approval('end', users(3)),
    );
    const result = await simulate(readOnly(tree), init());
    expect(result.nodes.map((n) => [n.node_id, n.assignees, n.strategy])).toEqual([
      ['skip', [], 'auto_pass'],
      ['fb', [8], 'fallback_users'],
      ['end', [3], null],
    ]);
    expect(result.nodes[1]?.fallback?.userIds).toEqual([8]);
    expect(result.failures).toEqual([]);
  });

  it('stops at a node that would suspend for want of an assignee', async () => {
    const tree = chain(
      start(),
      approval('sel', { type: 'initiator_selected' }),
      approval('end', users(3)),
    );
    const result = await simulate(readOnly(tree), init());
    expect(result.path).toEqual(['start', 'sel']);
    expect(result.nodes[0]?.strategy).toBe('suspend');
    expect(result.failures).toEqual([
      {
        node_id: 'sel',
        code: 'empty_assignee',
        detail: 'no assignee: the initiator selected nobody for sel',
      },
    ]);
    const chosen = await simulate(readOnly(tree), init({ selectedAssignees: { sel: [4] } }));
    expect(chosen.nodes[0]?.assignees).toEqual([4]);
  });
});

describe('explainTask', () => {
  async function running(tree: FlowNode) {
    const ctx = testContext(tree, DEFAULT_DIRECTORY);
    const { state } = await startInstance(ctx, init());
    return { ctx, state };
  }

  it('explains a task from the node rule', async () => {
    const { ctx, state } = await running(sample());
    const e = await explainTask(ctx, state, pendingOf(state.tasks, 22).id);
    expect(e).toMatchObject({
      node_id: 'leader',
      assignees: [22],
      source: 'rule',
      in_resolution: true,
      transferred: false,
      delegated: false,
    });
    expect(e.resolution).toMatchObject({ rule: 'dept_leader', source: 'initiator', level: 1 });
  });

  it('tells a transferred, delegated or added-by-sign task apart', async () => {
    const { ctx, state } = await running(sample());
    const taskId = pendingOf(state.tasks, 22).id;
    let s = (await applyAction(ctx, state, { type: 'add_sign', taskId, userIds: [8] }, person(22)))
      .state;
    s = (await applyAction(ctx, s, { type: 'transfer', taskId, toUserId: 9 }, person(22))).state;
    s = (await applyAction(ctx, s, { type: 'delegate', taskId, toUserId: 10 }, person(9))).state;
    expect(await explainTask(ctx, s, taskId)).toMatchObject({
      source: 'rule',
      assignee_id: 10,
      transferred: true,
      original_assignee_id: 22,
      delegated: true,
      delegator_id: 9,
      in_resolution: true,
    });
    const added = await explainTask(ctx, s, pendingOf(s.tasks, 8).id);
    expect(added).toMatchObject({ source: 'add_sign', in_resolution: false });
  });

  it('explains a fallback task and a resubmit task', async () => {
    const tree = chain(
      start(),
      approval('fb', users(99), {
        emptyAssignee: { strategy: 'fallback_users', userIds: [8] },
        onReject: 'initiator',
      }),
    );
    const { ctx, state } = await running(tree);
    const taskId = pendingOf(state.tasks, 8).id;
    expect(await explainTask(ctx, state, taskId)).toMatchObject({
      source: 'fallback',
      strategy: 'fallback_users',
    });
    const { state: s } = await applyAction(
      ctx,
      state,
      { type: 'reject', taskId, comment: 'no' },
      person(8),
    );
    const resubmit = await explainTask(ctx, s, pendingOf(s.tasks, 30).id);
    expect(resubmit).toMatchObject({
      source: 'resubmit',
      node_id: 'start',
      assignees: [30],
      resolution: null,
    });
  });

  it('answers 40400 for an unknown task', async () => {
    const { ctx, state } = await running(sample());
    await expect(explainTask(ctx, state, 777)).rejects.toMatchObject({ code: 40400 });
  });
});
