import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { chain, flowHelpers, type User } from './fixtures.js';

// A person and a department as form fields (BPM.md): ids checked against the directory, usable
// in conditions and as an assignee source (form_user; dept_leader from a dept field).

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const FORM = {
  fields: [
    { key: 'buyer', label: 'Buyer', type: 'user' },
    { key: 'owner', label: 'Owning department', type: 'dept' },
  ],
};

const step = (id: string, assignee: Record<string, unknown>) => ({
  id,
  type: 'approval',
  name: id,
  assignee,
  mode: 'or',
  child: null,
});

async function departmentLedBy(leader: User) {
  const res = await platform.call('POST', '/api/v1/departments', {
    token: admin,
    body: { name: uniq('dept'), leader_id: leader.id },
  });
  return res.body.data.id as number;
}

describe('person and department fields', () => {
  it('form_user: the person the field names approves; dept_leader reads a dept field', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, buyer, leader] = await users(3);
    const dept = await departmentLedBy(leader);
    const tree = chain(
      step('by_buyer', { type: 'form_user', field: 'buyer' }),
      step('by_dept', { type: 'dept_leader', source: 'form_field', field: 'owner' }),
    );
    const def = await publish(tree, { form_schema: FORM });
    const started = await start(initiator, def.key, { buyer: buyer.id, owner: dept });
    expect(started.status).toBe(200);
    const id = started.body.data.id;
    expect(started.body.data.form).toEqual({ buyer: buyer.id, owner: dept });
    await act(buyer, (await pendingTaskOf(buyer, id)).id, 'approve', {});
    const led = await pendingTaskOf(leader, id);
    expect(led.node_id).toBe('by_dept');
  });

  it('a start naming nobody of the directory is refused on the field (40002), creating nothing', async () => {
    const { publish, start, users, get } = h();
    const [initiator, disabled] = await users(2);
    await platform.call('PUT', `/api/v1/users/${disabled.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    const def = await publish(chain(step('by_buyer', { type: 'form_user', field: 'buyer' })), {
      form_schema: FORM,
    });
    const before = (await get(initiator, '/api/v1/bpm/instances/my')).body.data.total;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ buyer: disabled.id }, 'buyer', 'option'],
      [{ buyer: 987_654_321 }, 'buyer', 'option'],
      [{ buyer: initiator.id }, 'buyer', 'option'],
      [{}, 'buyer', 'required'],
      [{ buyer: 'bob' }, 'buyer', 'type'],
      [{ buyer: 1, owner: 987_654_321 }, 'owner', 'option'],
    ];
    for (const [form, field, rule] of cases) {
      const res = await start(initiator, def.key, form);
      expect([res.status, res.body.code], JSON.stringify(form)).toEqual([400, 40002]);
      expect(res.body.data.fields).toContainEqual(expect.objectContaining({ field, rule }));
    }
    expect((await get(initiator, '/api/v1/bpm/instances/my')).body.data.total).toBe(before);
  });

  it('branch conditions compare a department field by id', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, sales, others, leader] = await users(4);
    const dept = await departmentLedBy(leader);
    const tree = chain({
      id: 'route',
      type: 'branch',
      name: 'By department',
      branches: [
        {
          id: 'mine',
          name: 'This department',
          condition: { field: 'owner', op: 'eq', value: dept },
          child: step('s', { type: 'users', userIds: [sales.id] }),
        },
        {
          id: 'else',
          name: 'Otherwise',
          default: true,
          child: step('o', { type: 'users', userIds: [others.id] }),
        },
      ],
      child: null,
    });
    const def = await publish(tree, { form_schema: FORM });
    const id = (await start(initiator, def.key, { owner: dept })).body.data.id;
    expect(await pendingTaskOf(sales, id)).toBeDefined();
  });

  it('publish refuses form_user on a field that is not a person', async () => {
    const created = await platform.call('POST', '/api/v1/bpm/definitions', {
      token: admin,
      body: {
        key: uniq('pf').toLowerCase().replace(/_/g, '-'),
        name: 'People',
        form_mode: 'flow',
        form_schema: FORM,
        node_tree: chain(step('x', { type: 'form_user', field: 'owner' })),
      },
    });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      {
        token: admin,
      },
    );
    expect([res.status, res.body.code]).toEqual([400, 40001]);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({ field: 'node_tree.x', rule: 'type' }),
    ]);
  });
});
