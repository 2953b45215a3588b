import { describe, expect, it } from 'vitest';
import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import {
  DEFAULT_DIRECTORY,
  INITIATOR,
  NOW,
  admin,
  person,
  approval,
  chain,
  logs,
  start,
  testAbsences,
  testContext,
  users,
} from './directory.test-support.js';
import { explainTask, simulate } from './simulate.js';
import { standInFor } from './stand-ins.js';
import type { Absence, FlowNode } from './types.js';

const UNTIL = NOW + 7 * 24 * 3_600_000;
const away = (userId: number, standInId: number): Absence => ({ userId, standInId, until: UNTIL });
const init = {
  form: {},
  initiatorId: INITIATOR,
  initiatorDeptId: 2,
  initiatorRoleIds: [],
  selectedAssignees: {},
};

async function startWith(tree: FlowNode, absences: Absence[]) {
  const ctx = testContext(tree, DEFAULT_DIRECTORY, NOW, testAbsences(absences));
  return { ctx, ...(await startInstance(ctx, init)) };
}

const opts = { initiatorId: INITIATOR, allowInitiator: false };
const ctxWith = (absences: Absence[]) => ({
  directory: DEFAULT_DIRECTORY,
  absences: testAbsences(absences),
});

describe('standInFor (out of office)', () => {
  it('answers null for someone who is not away', async () => {
    expect(await standInFor(ctxWith([away(2, 3)]), 1, opts)).toBeNull();
  });

  it('follows a chain to the first person who is not away', async () => {
    const found = await standInFor(ctxWith([away(1, 2), away(2, 3)]), 1, opts);
    expect(found).toEqual({ userId: 1, standInId: 3, chain: [away(1, 2), away(2, 3)] });
  });

  it('a cycle leaves the task with the person the rule named', async () => {
    expect(await standInFor(ctxWith([away(1, 2), away(2, 1)]), 1, opts)).toBeNull();
    expect(await standInFor(ctxWith([away(1, 2), away(2, 3), away(3, 2)]), 1, opts)).toBeNull();
  });

  it('stops before a stand-in who is inactive, unknown or the initiator (unless allowed)', async () => {
    expect(await standInFor(ctxWith([away(1, 99)]), 1, opts)).toBeNull();
    expect(await standInFor(ctxWith([away(1, 5000)]), 1, opts)).toBeNull();
    expect(await standInFor(ctxWith([away(1, 2), away(2, 99)]), 1, opts)).toMatchObject({
      standInId: 2,
    });
    expect(await standInFor(ctxWith([away(1, INITIATOR)]), 1, opts)).toBeNull();
    const allowed = { ...opts, allowInitiator: true };
    expect(await standInFor(ctxWith([away(1, INITIATOR)]), 1, allowed)).toMatchObject({
      standInId: INITIATOR,
    });
  });
});

describe('tasks of people out of office', () => {
  it('open for the stand-in, on behalf of the person away, logged as stand_in', async () => {
    const { state, effects } = await startWith(chain(start(), approval('a', users(1, 2))), [
      away(1, 3),
    ]);
    const open = state.tasks.map((t) => [t.assigneeId, t.onBehalfOfId]);
    expect(open).toEqual([
      [3, 1],
      [2, null],
    ]);
    expect(logs(effects).find((l) => l.action === 'stand_in')).toMatchObject({
      nodeId: 'a',
      operatorId: 0,
      details: { user_id: 1, stand_in_id: 3, until: new Date(UNTIL).toISOString() },
    });
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [3, 2], nodeId: 'a' });
  });

  it('a stand-in who is already an assignee of the step holds one task, for themselves', async () => {
    const { state } = await startWith(chain(start(), approval('a', users(1, 2), { mode: 'and' })), [
      away(1, 2),
    ]);
    expect(state.tasks.map((t) => [t.assigneeId, t.onBehalfOfId])).toEqual([[2, null]]);
  });

  it('a sequential step keeps its order with the stand-in in the absent person\u2019s place', async () => {
    const { state } = await startWith(
      chain(start(), approval('a', users(1, 2), { mode: 'sequential' })),
      [away(2, 4)],
    );
    expect(state.tasks.map((t) => [t.assigneeId, t.status, t.onBehalfOfId])).toEqual([
      [1, 'pending', null],
      [4, 'waiting', 2],
    ]);
  });

  it('simulate names the stand-ins with the chain followed; explain says on whose behalf', async () => {
    const tree = chain(start(), approval('a', users(1)));
    const { ctx, state } = await startWith(tree, [away(1, 2), away(2, 3)]);
    const route = await simulate(ctx, init);
    expect(route.nodes[0]).toMatchObject({
      assignees: [3],
      stand_ins: [
        {
          user_id: 1,
          stand_in_id: 3,
          chain: [
            { user_id: 1, stand_in_id: 2, until: new Date(UNTIL).toISOString() },
            { user_id: 2, stand_in_id: 3, until: new Date(UNTIL).toISOString() },
          ],
        },
      ],
    });
    const explained = await explainTask(ctx, state, state.tasks[0]!.id);
    expect(explained).toMatchObject({
      assignee_id: 3,
      on_behalf_of_id: 1,
      in_resolution: true,
      stand_in: { user_id: 1, stand_in_id: 3 },
    });
  });
});

describe('hand_to_stand_in (out of office, moving the open tasks)', () => {
  it('moves the holder’s open task to their stand-in, on their behalf, logged as stand_in', async () => {
    const tree = chain(start(), approval('a', users(1, 2)));
    const before = await startWith(tree, []);
    const ctx = { ...before.ctx, absences: testAbsences([away(1, 3)]) };
    const taskId = before.state.tasks.find((t) => t.assigneeId === 1)!.id;
    const { state, effects } = await applyAction(
      ctx,
      before.state,
      { type: 'hand_to_stand_in', taskId },
      person(1),
    );
    expect(state.tasks.find((t) => t.id === taskId)).toMatchObject({
      assigneeId: 3,
      onBehalfOfId: 1,
    });
    expect(logs(effects)[0]).toMatchObject({
      action: 'stand_in',
      operatorId: 1,
      details: { task_id: taskId, user_id: 1, stand_in_id: 3 },
    });
    expect(effects).toContainEqual({ type: 'notify', kind: 'todo', userIds: [3], nodeId: 'a' });
  });

  it('is refused when nobody stands in (40900), to others than the holder or an admin (40301), and to a co-holder (40001)', async () => {
    const tree = chain(start(), approval('a', users(1, 2)));
    const before = await startWith(tree, []);
    const taskId = before.state.tasks.find((t) => t.assigneeId === 1)!.id;
    const act = (absences: Absence[], actor = admin()) =>
      applyAction(
        { ...before.ctx, absences: testAbsences(absences) },
        before.state,
        { type: 'hand_to_stand_in', taskId },
        actor,
      );
    await expect(act([])).rejects.toMatchObject({ code: 40900 });
    await expect(act([away(1, 3)], person(2))).rejects.toMatchObject({ code: 40301 });
    await expect(act([away(1, 2)])).rejects.toMatchObject({ code: 40001 });
  });
});
