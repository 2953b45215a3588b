import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/logger.js';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { TimeoutScanner } from '../../src/services/bpm/jobs/timeout.scanner.js';
import { InstanceRunner } from '../../src/services/bpm/runtime/runner.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers, testDirectoryOf, type User } from './fixtures.js';

// Deadlines that repeat and escalate (BPM.md "Timeouts"), and the initiator's resubmit deadline,
// driven through the real scanner; the tests make deadlines pass by moving due_at.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);
const db = () => platform.kernel.database.db.withTables<BpmTables>();
const HOUR = 3_600_000;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

function scanner() {
  const runner = new InstanceRunner({
    db: db(),
    directoryOf: testDirectoryOf(db()),
    notify: { enabled: false },
  });
  return new TimeoutScanner({ db: db(), runner, logger: createLogger('silent') });
}

/** Every pending task of the instance is overdue. */
const overdue = (instanceId: number) =>
  db()
    .updateTable('bpm_tasks')
    .set({ due_at: new Date(Date.now() - 1000) })
    .where('instance_id', '=', instanceId)
    .where('status', '=', 'pending')
    .execute();

const timeline = async (instanceId: number) =>
  (await platform.call('GET', `/api/v1/bpm/instances/${instanceId}/timeline`, { token: admin }))
    .body.data as any[];
const detail = async (instanceId: number) =>
  (await platform.call('GET', `/api/v1/bpm/instances/${instanceId}`, { token: admin })).body.data;

async function department(name: string, parentId: number | null, leader: User) {
  const res = await platform.call('POST', '/api/v1/departments', {
    token: admin,
    body: { name: uniq(name), ...(parentId ? { parent_id: parentId } : {}), leader_id: leader.id },
  });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}
const placeIn = (user: User, deptId: number) =>
  platform.call('PUT', `/api/v1/users/${user.id}`, { token: admin, body: { dept_id: deptId } });

describe('reminders that repeat', () => {
  it('remind every repeatEveryHours until repeatCount, each logged with its count', async () => {
    const { publish, start, users } = h();
    const [initiator, holder] = await users(2);
    const timeout = { hours: 8, action: 'remind', repeatEveryHours: 4, repeatCount: 2 };
    const def = await publish(chain(approval('n', [holder.id], { timeout })));
    const id = (await start(initiator, def.key)).body.data.id;
    const scan = scanner();
    await overdue(id);
    await scan.runOnce();
    const rearmed = (await detail(id)).tasks[0];
    expect(Date.parse(rearmed.due_at)).toBeGreaterThan(Date.now() + 3.9 * HOUR);
    await overdue(id);
    await scan.runOnce();
    await scan.runOnce();
    const reminders = (await timeline(id)).filter((e) => e.action === 'remind');
    expect(reminders.map((e) => e.details)).toEqual([{ count: 1 }, { count: 2 }]);
    expect(reminders.every((e) => e.operator_id === 0)).toBe(true);
  });
});

describe('escalation', () => {
  it('passes the task up the department tree one level per period, then stays at the top', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, holder, lead, head] = await users(4);
    const top = await department('top', null, head);
    const team = await department('team', top, lead);
    await placeIn(holder, team);
    await placeIn(lead, team);
    await placeIn(head, top);
    const timeout = { hours: 24, action: 'escalate', repeatEveryHours: 12 };
    const def = await publish(chain(approval('n', [holder.id], { timeout })));
    const id = (await start(initiator, def.key)).body.data.id;
    const scan = scanner();
    await overdue(id);
    await scan.runOnce();
    expect(await pendingTaskOf(lead, id)).toMatchObject({ original_assignee_id: holder.id });
    await overdue(id);
    await scan.runOnce();
    const atTop = await pendingTaskOf(head, id);
    expect(atTop).toMatchObject({ original_assignee_id: holder.id });
    await overdue(id);
    await scan.runOnce();
    const entries = (await timeline(id)).filter((e) => e.action === 'escalate');
    expect(entries.map((e) => e.details)).toEqual([
      { from_user_id: holder.id, to_user_id: lead.id, level: 1 },
      { from_user_id: lead.id, to_user_id: head.id, level: 2 },
      { from_user_id: head.id, to_user_id: null, level: 2 },
    ]);
    expect(entries[2].comment).toBe('top of the tree');
    const approved = await act(head, atTop.id, 'approve', {});
    expect(approved.body.data.instance.status).toBe('approved');
  });

  it('at the top, finalAction auto_reject rejects as the system', async () => {
    const { publish, start, users } = h();
    const [initiator, holder] = await users(2);
    const timeout = { hours: 1, action: 'escalate', finalAction: 'auto_reject' };
    const def = await publish(chain(approval('n', [holder.id], { timeout })));
    const id = (await start(initiator, def.key)).body.data.id;
    await overdue(id);
    await scanner().runOnce();
    expect((await detail(id)).status).toBe('rejected');
  });
});

describe('the resubmit deadline', () => {
  const returned = async (action: 'remind' | 'cancel') => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, holder] = await users(2);
    const tree = { ...chain(approval('n', [holder.id])), resubmitTimeout: { hours: 48, action } };
    const def = await publish(tree);
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(holder, id);
    await act(holder, task.id, 'return', { to: 'initiator', comment: 'fix the dates' });
    const resubmit = await pendingTaskOf(initiator, id);
    expect(Date.parse(resubmit.due_at)).toBeGreaterThan(Date.now() + 47 * HOUR);
    return { id, initiator };
  };

  it('cancel: the request is canceled by the system when the initiator does not resubmit', async () => {
    const { id } = await returned('cancel');
    await overdue(id);
    await scanner().runOnce();
    expect((await detail(id)).status).toBe('canceled');
    expect((await timeline(id)).find((e) => e.action === 'cancel')).toMatchObject({
      action: 'cancel',
      operator_id: 0,
      comment: 'timeout',
    });
  });

  it('remind: the initiator is reminded once and the request stays open', async () => {
    const { id } = await returned('remind');
    await overdue(id);
    const scan = scanner();
    await scan.runOnce();
    await scan.runOnce();
    expect((await detail(id)).status).toBe('running');
    expect((await timeline(id)).filter((e) => e.action === 'remind')).toHaveLength(1);
  });

  it('publish refuses a bad resubmitTimeout and a bad escalation, naming the node', async () => {
    const bad = await platform.call('POST', '/api/v1/bpm/definitions', {
      token: admin,
      body: {
        key: uniq('dl').toLowerCase().replace(/_/g, '-'),
        name: 'Deadlines',
        form_mode: 'flow',
        form_schema: { fields: [] },
        node_tree: {
          ...chain(
            approval('n', [1], { timeout: { hours: 1, action: 'escalate', repeatCount: 3 } }),
          ),
          resubmitTimeout: { hours: 0, action: 'later' },
        },
      },
    });
    const published = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${bad.body.data.id}/publish`,
      {
        token: admin,
      },
    );
    expect([published.status, published.body.code]).toEqual([400, 40001]);
    const fields = published.body.data.fields.map((f: any) => [f.field, f.rule]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['node_tree.n', 'option'],
        ['node_tree.start', 'range'],
        ['node_tree.start', 'option'],
      ]),
    );
  });
});
