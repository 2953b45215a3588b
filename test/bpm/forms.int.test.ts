import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers, LEAVE_FORM } from './fixtures.js';

// What approvers may do to a form, and who sees which fields (issue 10, defects 1, 3, 4).

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const DEPT_FORM = {
  fields: [...LEAVE_FORM.fields, { key: 'dept', label: 'Department', type: 'number' }],
};

describe('an approver editing the form', () => {
  it('keeps stored amounts as they are when the approver sends an empty form', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('a', [approver.id])));
    const started = await start(initiator, def.key, { reason: 'r', days: 2, amount: '1500.50' });
    expect(started.body.data.form.amount).toBe(150050);
    const task = await pendingTaskOf(approver, started.body.data.id);
    const res = await act(approver, task.id, 'approve', { form: {} });
    expect(res.status).toBe(200);
    expect(res.body.data.instance.form.amount).toBe(150050);
    const detail = await h().get(initiator, `/api/v1/bpm/instances/${started.body.data.id}`);
    expect(detail.body.data.form).toEqual({ reason: 'r', days: 2, amount: 150050 });
  });

  it('refuses edits outside the node\u2019s editableFields (40301), naming the fields', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('a', [approver.id], { editableFields: ['days'] })));
    const started = await start(initiator, def.key, { reason: 'r', days: 2 });
    const task = await pendingTaskOf(approver, started.body.data.id);
    const res = await act(approver, task.id, 'approve', {
      form: { days: 3, reason: 'x', kind: 'sick' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(40301);
    expect(res.body.data.fields.map((f: any) => f.field).sort()).toEqual([
      'form.kind',
      'form.reason',
    ]);
    const detail = await h().get(initiator, `/api/v1/bpm/instances/${started.body.data.id}`);
    expect(detail.body.data.form).toEqual({ reason: 'r', days: 2 });
    expect(detail.body.data.tasks[0].status).toBe('pending');
  });

  it('refuses any edit on a node that declares no editableFields', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('a', [approver.id])));
    const started = await start(initiator, def.key);
    const task = await pendingTaskOf(approver, started.body.data.id);
    const res = await act(approver, task.id, 'approve', { form: { days: 3 } });
    expect(res.status).toBe(403);
    expect(res.body.data.fields).toEqual([expect.objectContaining({ field: 'form.days' })]);
  });

  it('validates only what the approver sent (40002 on a bad value)', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('a', [approver.id], { editableFields: ['days'] })));
    const started = await start(initiator, def.key);
    const task = await pendingTaskOf(approver, started.body.data.id);
    const res = await act(approver, task.id, 'approve', { form: { days: 99 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40002);
    expect(res.body.data.fields.map((f: any) => f.field)).toEqual(['days']);
  });

  it('logs each accepted edit with before and after, hiding hidden values from those who may not see them', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, a, b] = await users(3);
    const def = await publish(
      chain(
        approval('a', [a.id], { editableFields: ['days', 'amount'] }),
        approval('b', [b.id], { hiddenFields: ['amount'] }),
      ),
    );
    const started = await start(initiator, def.key, { reason: 'r', days: 2, amount: '10' });
    const id = started.body.data.id;
    const task = await pendingTaskOf(a, id);
    const res = await act(a, task.id, 'approve', { form: { days: 3, amount: '12.5' } });
    expect(res.status).toBe(200);
    expect(res.body.data.instance.form).toMatchObject({ days: 3, amount: 1250 });
    const byInitiator = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data;
    const edit = byInitiator.find((e: any) => e.action === 'edit');
    expect(edit).toMatchObject({ operator_id: a.id, node_id: 'a' });
    expect(edit.details.changes).toEqual([
      { field: 'days', before: 2, after: 3 },
      { field: 'amount', before: 1000, after: 1250 },
    ]);
    const byB = (await get(b, `/api/v1/bpm/instances/${id}/timeline`)).body.data;
    expect(byB.find((e: any) => e.action === 'edit').details.changes).toEqual([
      { field: 'days', before: 2, after: 3 },
    ]);
  });
});

describe('hidden fields', () => {
  it('hides a CC node\u2019s hiddenFields from its recipients in detail, task detail and diagram', async () => {
    const { publish, start, pendingTaskOf, users, get } = h();
    const [initiator, reader, approver] = await users(3);
    const def = await publish(
      chain(
        {
          id: 'copy',
          type: 'cc',
          name: 'Copy',
          assignee: { type: 'users', userIds: [reader.id] },
          hiddenFields: ['amount'],
        },
        approval('a', [approver.id]),
      ),
    );
    const started = await start(initiator, def.key, { reason: 'r', days: 1, amount: '5' });
    const id = started.body.data.id;
    const task = await pendingTaskOf(approver, id);
    const detail = await get(reader, `/api/v1/bpm/instances/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.form).toEqual({ reason: 'r', days: 1 });
    const taskDetail = await get(reader, `/api/v1/bpm/tasks/${task.id}`);
    expect(taskDetail.body.data.instance.form).toEqual({ reason: 'r', days: 1 });
    const diagram = await get(reader, `/api/v1/bpm/instances/${id}/diagram`);
    expect(diagram.body.data.form).toEqual({ reason: 'r', days: 1 });
    expect((await get(approver, `/api/v1/bpm/instances/${id}`)).body.data.form.amount).toBe(500);
  });

  it('keeps them hidden from the user who transferred or delegated the task', async () => {
    const { publish, start, pendingTaskOf, act, users, get } = h();
    const [initiator, first, second, third] = await users(4);
    const def = await publish(chain(approval('a', [first.id], { hiddenFields: ['amount'] })));
    const started = await start(initiator, def.key, { reason: 'r', days: 1, amount: '5' });
    const id = started.body.data.id;
    const task = await pendingTaskOf(first, id);
    expect((await act(first, task.id, 'transfer', { to_user_id: second.id })).status).toBe(200);
    expect((await act(second, task.id, 'delegate', { to_user_id: third.id })).status).toBe(200);
    for (const user of [first, second, third]) {
      const detail = await get(user, `/api/v1/bpm/instances/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.data.form).toEqual({ reason: 'r', days: 1 });
    }
  });

  it('does not reveal a hidden department field through explain', async () => {
    const { start, pendingTaskOf, users, get } = h();
    const [initiator, leader] = await users(2);
    const dept = await platform.call('POST', '/api/v1/departments', {
      token: admin,
      body: { name: `D ${initiator.username}`, leader_id: leader.id },
    });
    expect(dept.status).toBe(200);
    const created = await platform.call('POST', '/api/v1/bpm/definitions', {
      token: admin,
      body: {
        key: `dept-${initiator.username}`.toLowerCase().replace(/_/g, '-'),
        name: 'By department',
        form_mode: 'flow',
        form_schema: DEPT_FORM,
        node_tree: chain({
          ...approval('a', []),
          assignee: { type: 'dept_leader', source: 'form_field', field: 'dept' },
          hiddenFields: ['dept'],
        }),
      },
    });
    expect(created.status).toBe(200);
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const started = await start(initiator, created.body.data.key, {
      reason: 'r',
      days: 1,
      dept: dept.body.data.id,
    });
    expect(started.status).toBe(200);
    const task = await pendingTaskOf(leader, started.body.data.id);
    expect(task).toBeDefined();
    const explain = await get(leader, `/api/v1/bpm/tasks/${task.id}/explain`);
    expect(explain.status).toBe(200);
    expect(JSON.stringify(explain.body.data)).not.toContain(`"deptId":${dept.body.data.id}`);
    expect(explain.body.data.resolution).toMatchObject({ deptId: null, leaderDeptId: null });
  });
});
