import { describe, expect, it } from 'vitest';
import { startInstance, type StartInit } from './advance.js';
import {
  NOW,
  approval,
  branch,
  cc,
  chain,
  logActions,
  logs,
  start,
  tasksOf,
  testContext,
  users,
} from './directory.test-support.js';
import type { FlowNode } from './types.js';

const INITIATOR = 30;
const begin = (tree: FlowNode, over: Partial<StartInit> = {}) =>
  startInstance(testContext(tree), {
    form: { amount: 500 },
    initiatorId: INITIATOR,
    initiatorDeptId: 2,
    initiatorRoleIds: [],
    selectedAssignees: {},
    ...over,
  });

const bigSmall = (big: FlowNode | null, small: FlowNode | null, after?: FlowNode) =>
  chain(
    start(),
    ...[
      branch('amount', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 1000 },
          child: big,
        },
        { id: 'small', name: 'Small', default: true, child: small },
      ]),
      ...(after ? [after] : []),
    ],
  );

describe('startInstance', () => {
  it('logs start by the initiator, then opens the first approval node tasks', async () => {
    const { state, effects } = await begin(chain(start(), approval('a', users(1, 2))));
    expect(logs(effects)[0]).toEqual({
      nodeId: 'start',
      nodeName: 'Submit',
      action: 'start',
      operatorId: INITIATOR,
      comment: null,
      round: 1,
      details: null,
    });
    expect(state).toMatchObject({
      status: 'running',
      round: 1,
      currentNodeId: 'a',
      path: ['start', 'a'],
    });
  });

  it('gives new tasks negative temporary ids, the round and the creation time', async () => {
    const { state } = await begin(chain(start(), approval('a', users(1, 2))));
    expect(state.tasks.map((t) => [t.id, t.round, t.createdAt])).toEqual([
      [-1, 1, NOW],
      [-2, 1, NOW],
    ]);
  });
});

describe('advance: opening tasks', () => {
  it.each(['and', 'or'] as const)(
    '%s mode opens one pending task per assignee and notifies them',
    async (mode) => {
      const { state, effects } = await begin(
        chain(start(), approval('a', users(1, 2, 3), { mode })),
      );
      expect(state.tasks.map((t) => [t.assigneeId, t.status, t.seq])).toEqual([
        [1, 'pending', 0],
        [2, 'pending', 0],
        [3, 'pending', 0],
      ]);
      expect(effects).toContainEqual({
        type: 'notify',
        kind: 'todo',
        userIds: [1, 2, 3],
        nodeId: 'a',
      });
    },
  );

  it('sequential mode opens the first pending and queues the rest in order', async () => {
    const { state, effects } = await begin(
      chain(start(), approval('a', users(3, 1, 2), { mode: 'sequential' })),
    );
    expect(state.tasks.map((t) => [t.assigneeId, t.status, t.seq])).toEqual([
      [3, 'pending', 0],
      [1, 'waiting', 1],
      [2, 'waiting', 2],
    ]);
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [3], nodeId: 'a' });
  });

  it('sets due times from the node timeout, fractional hours included, on pending tasks only', async () => {
    const node = approval('a', users(1, 2), {
      mode: 'sequential',
      timeout: { hours: 1.5, action: 'remind' },
    });
    const { state } = await begin(chain(start(), node));
    expect(state.tasks.map((t) => t.dueAt)).toEqual([NOW + 5_400_000, null]);
  });

  it('sets no due time without a timeout', async () => {
    const { state } = await begin(chain(start(), approval('a', users(1))));
    expect(state.tasks[0]?.dueAt).toBeNull();
  });
});

describe('advance: cc nodes', () => {
  it('copies the resolved users, notifies them, logs and continues', async () => {
    const { state, effects } = await begin(
      chain(start(), cc('copy', users(7, 99)), approval('a', users(1))),
    );
    expect(effects).toContainEqual({ type: 'cc', nodeId: 'copy', userIds: [7], round: 1 });
    expect(effects).toContainEqual({ type: 'notify', kind: 'cc', userIds: [7], nodeId: 'copy' });
    expect(logActions(effects)).toEqual(['start', 'cc']);
    expect(state.path).toEqual(['start', 'copy', 'a']);
  });

  it('writes no copies when nobody is resolved, and still continues', async () => {
    const { state, effects } = await begin(
      chain(start(), cc('copy', users(99)), approval('a', users(1))),
    );
    expect(effects.some((e) => e.type === 'cc')).toBe(false);
    expect(state.currentNodeId).toBe('a');
  });
});

describe('advance: branches', () => {
  it('enters the chosen chain and logs the branch taken', async () => {
    const tree = bigSmall(approval('cfo', users(5)), approval('lead', users(4)));
    const { state, effects } = await begin(tree, { form: { amount: 5000 } });
    expect(state.currentNodeId).toBe('cfo');
    expect(state.path).toEqual(['start', 'amount', 'cfo']);
    expect(logs(effects).find((l) => l.action === 'branch')).toMatchObject({
      nodeId: 'amount',
      comment: 'Big',
      operatorId: 0,
    });
  });

  it('takes the default branch when no other matches', async () => {
    const tree = bigSmall(approval('cfo', users(5)), approval('lead', users(4)));
    expect((await begin(tree, { form: { amount: 10 } })).state.currentNodeId).toBe('lead');
  });

  it('continues with the branch node child after an empty branch chain', async () => {
    const tree = bigSmall(approval('cfo', users(5)), null, approval('after', users(6)));
    const { state } = await begin(tree, { form: { amount: 10 } });
    expect(state.path).toEqual(['start', 'amount', 'after']);
  });

  it('routes through nested branches', async () => {
    const inner = branch('urgency', [
      {
        id: 'urgent',
        name: 'Urgent',
        condition: { field: 'urgent', op: 'eq', value: true },
        child: approval('ceo', users(9)),
      },
      { id: 'calm', name: 'Calm', default: true, child: null },
    ]);
    const tree = bigSmall(inner, null, approval('after', users(6)));
    expect((await begin(tree, { form: { amount: 5000, urgent: true } })).state.path).toEqual([
      'start',
      'amount',
      'urgency',
      'ceo',
    ]);
    expect((await begin(tree, { form: { amount: 5000, urgent: false } })).state.path).toEqual([
      'start',
      'amount',
      'urgency',
      'after',
    ]);
  });

  it.each([
    ['a missing field', { form: {} }, 'required', /field amount is missing/],
    [
      'a value of the wrong type',
      { form: { amount: 'lots' } },
      'type',
      /cannot order string against number/,
    ],
  ])(
    'refuses a start on %s of the form, naming the field (40002), before anything exists',
    async (_, over, rule, detail) => {
      const tree = bigSmall(approval('cfo', users(5)), approval('lead', users(4)));
      const refused = await begin(tree, over).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: 40002 });
      const fields = (
        refused as { details: { fields: { field: string; rule: string; message: string }[] } }
      ).details.fields;
      expect(fields.map((f) => [f.field, f.rule])).toEqual([['amount', rule]]);
      expect(fields[0]!.message).toMatch(detail);
    },
  );

  it('suspends, with the reason and without routing, on a condition the submitter cannot correct', async () => {
    const tree = chain(
      start(),
      branch('amount', [
        {
          id: 'team',
          name: 'Team',
          condition: { field: 'initiator.dept_id', op: 'gt', value: 1 },
          child: approval('cfo', users(5)),
        },
        { id: 'other', name: 'Other', default: true, child: approval('lead', users(4)) },
      ]),
    );
    const { state, effects } = await begin(tree, { initiatorDeptId: null });
    expect(state).toMatchObject({
      status: 'suspended',
      currentNodeId: null,
      tasks: [],
      path: ['start', 'amount'],
    });
    expect(state.suspendReason).toMatchObject({ code: 'condition_failed', node_id: 'amount' });
    expect(state.suspendReason?.detail).toMatch(/field initiator.dept_id is missing/);
    expect(logs(effects).at(-1)).toMatchObject({
      action: 'suspend',
      nodeId: 'amount',
      operatorId: 0,
    });
  });

  it('suspends when no branch matches and there is no default', async () => {
    const tree = chain(
      start(),
      branch('b', [
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 1000 },
          child: null,
        },
      ]),
    );
    const { state } = await begin(tree);
    expect(state.suspendReason).toEqual({
      code: 'condition_failed',
      node_id: 'b',
      detail: 'no branch matched and there is no default',
    });
  });
});

describe('advance: empty assignees', () => {
  const nobody = users(99);

  it('suspends by default with reason empty_assignee', async () => {
    const { state, effects } = await begin(chain(start(), approval('a', nobody)));
    expect(state.status).toBe('suspended');
    expect(state.suspendReason).toMatchObject({ code: 'empty_assignee', node_id: 'a' });
    expect(state.suspendReason?.detail).toMatch(/user 99 inactive/);
    expect(logActions(effects)).toEqual(['start', 'suspend']);
  });

  it('suspends with strategy suspend', async () => {
    const { state } = await begin(
      chain(start(), approval('a', nobody, { emptyAssignee: { strategy: 'suspend' } })),
    );
    expect(state.suspendReason?.code).toBe('empty_assignee');
  });

  it('auto_pass logs the pass as the system and continues', async () => {
    const tree = chain(
      start(),
      approval('a', nobody, { emptyAssignee: { strategy: 'auto_pass' } }),
      approval('b', users(2)),
    );
    const { state, effects } = await begin(tree);
    expect(logs(effects)[1]).toMatchObject({ action: 'auto_pass', nodeId: 'a', operatorId: 0 });
    expect(state).toMatchObject({ currentNodeId: 'b', path: ['start', 'a', 'b'] });
    expect(tasksOf(state.tasks, 'a')).toEqual([]);
  });

  it('fallback_users opens tasks for the usable fallback users', async () => {
    const node = approval('a', nobody, {
      emptyAssignee: { strategy: 'fallback_users', userIds: [99, 8] },
    });
    const { state } = await begin(chain(start(), node));
    expect(state.tasks.map((t) => t.assigneeId)).toEqual([8]);
  });

  it('fallback_users with no usable user suspends with empty_assignee', async () => {
    const node = approval('a', nobody, {
      emptyAssignee: { strategy: 'fallback_users', userIds: [99] },
    });
    const { state } = await begin(chain(start(), node));
    expect(state.suspendReason).toEqual({
      code: 'empty_assignee',
      node_id: 'a',
      detail: 'no assignee, and no usable fallback user',
    });
  });
});

describe('advance: end of the tree', () => {
  it('approves, logs finish, emits terminal and tells the initiator', async () => {
    const tree = chain(
      start(),
      approval('a', users(99), { emptyAssignee: { strategy: 'auto_pass' } }),
    );
    const { state, effects } = await begin(tree);
    expect(state).toMatchObject({ status: 'approved', currentNodeId: null, suspendReason: null });
    expect(logActions(effects)).toEqual(['start', 'auto_pass', 'finish']);
    expect(effects.slice(-2)).toEqual([
      { type: 'terminal', status: 'approved' },
      { type: 'notify', kind: 'terminal', userIds: [INITIATOR], nodeId: null },
    ]);
  });
});
