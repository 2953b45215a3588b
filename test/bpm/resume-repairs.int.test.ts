import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, createDefinition, flowHelpers } from './fixtures.js';

// Every suspended request can be repaired without terminating it (BPM.md "resume"): the people
// for a step without approvers, the branch for an undecidable branch node, the form for a
// department without a leader.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const resume = (id: number, body: Record<string, unknown>, token = admin) =>
  platform.call('POST', `/api/v1/bpm/instances/${id}/resume`, { token, body });

async function publishTree(tree: unknown, formSchema?: unknown) {
  const created = await createDefinition(platform, admin, {
    node_tree: tree,
    ...(formSchema ? { form_schema: formSchema } : {}),
  });
  const res = await platform.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token: admin },
  );
  expect(res.status).toBe(200);
  return res.body.data as { key: string };
}

describe('resume with repairs', () => {
  it('opens the stopped step for the people named; a plain resume only stops again', async () => {
    const { start, users, pendingTaskOf, get } = h();
    const [initiator, approver] = await users(2);
    const role = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: uniq('nobody').toLowerCase(), name: 'Nobody', permissions: [] },
    });
    const def = await h().publish(
      chain({
        ...approval('finance', []),
        assignee: { type: 'roles', roleIds: [role.body.data.id] },
      }),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const plain = await resume(id, {});
    expect(plain.body.data).toMatchObject({ status: 'suspended' });

    const refused = await resume(id, { assignee_ids: [initiator.id] });
    expect([refused.status, refused.body.code]).toEqual([400, 40001]);
    expect((await get(admin, `/api/v1/bpm/instances/${id}`)).body.data.status).toBe('suspended');

    const repaired = await resume(id, { assignee_ids: [approver.id], comment: 'finance lead' });
    expect(repaired.status).toBe(200);
    expect(repaired.body.data).toMatchObject({ status: 'running', current_node_ids: ['finance'] });
    expect(await pendingTaskOf(approver, id)).toBeDefined();
    const entry = (await get(admin, `/api/v1/bpm/instances/${id}/timeline`)).body.data
      .filter((e: any) => e.action === 'resume')
      .at(-1);
    expect(entry).toMatchObject({
      comment: 'finance lead',
      details: { assignee_ids: [approver.id] },
    });
    const audited = await platform.call('GET', `/api/v1/logs/audit?action=resume&target_id=${id}`, {
      token: admin,
    });
    expect(audited.body.data.list[0].after.repairs).toEqual({ assignee_ids: [approver.id] });
  });

  it('enters the branch named at a branch node that could not decide', async () => {
    const { start, users, pendingTaskOf } = h();
    const [initiator, small, large] = await users(3);
    const def = await publishTree(
      chain({
        id: 'size',
        type: 'branch',
        name: 'Size',
        branches: [
          {
            id: 'small',
            name: 'Small',
            condition: { field: 'days', op: 'lt', value: 2 },
            child: approval('s', [small.id]),
          },
          {
            id: 'large',
            name: 'Large',
            condition: { field: 'days', op: 'gt', value: 5 },
            child: approval('l', [large.id]),
          },
          // No default, and 2..5 days match neither: the route stops.
          {
            id: 'never',
            name: 'Never',
            condition: { field: 'days', op: 'lt', value: 0 },
            child: null,
          },
        ],
      }),
    );
    const id = (await start(initiator, def.key, { reason: 'r', days: 3 })).body.data.id;
    const bad = await resume(id, { branch_id: 'nope' });
    expect([bad.status, bad.body.code]).toEqual([400, 40001]);
    const repaired = await resume(id, { branch_id: 'large' });
    expect(repaired.body.data).toMatchObject({ status: 'running', current_node_ids: ['l'] });
    expect(await pendingTaskOf(large, id)).toBeDefined();
  });

  it('patches the frozen form and re-evaluates: a department with a leader this time', async () => {
    const { start, users, pendingTaskOf, get } = h();
    const [initiator, leader] = await users(2);
    const dept = async (leaderId: number | null) =>
      (
        await platform.call('POST', '/api/v1/departments', {
          token: admin,
          body: { name: uniq('dept'), leader_id: leaderId },
        })
      ).body.data.id as number;
    const headless = await dept(null);
    const led = await dept(leader.id);
    const def = await publishTree(
      chain({
        ...approval('lead', []),
        assignee: { type: 'dept_leader', source: 'form_field', field: 'dept' },
      }),
      {
        fields: [
          { key: 'reason', label: 'Reason', type: 'input', required: true },
          { key: 'dept', label: 'Department', type: 'number', required: true },
        ],
      },
    );
    const id = (await start(initiator, def.key, { reason: 'r', dept: headless })).body.data.id;
    expect((await get(admin, `/api/v1/bpm/instances/${id}`)).body.data.status).toBe('suspended');

    for (const form_patch of [{ dept: 'x' }, { salary: 1 }]) {
      const refused = await resume(id, { form_patch });
      expect([refused.status, refused.body.code]).toEqual([400, 40002]);
    }
    const repaired = await resume(id, { form_patch: { dept: led } });
    expect(repaired.body.data).toMatchObject({
      status: 'running',
      form: { reason: 'r', dept: led },
    });
    expect(await pendingTaskOf(leader, id)).toBeDefined();
    const edit = (await get(admin, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
      (e: any) => e.action === 'edit',
    );
    expect(edit.details.changes).toEqual([{ field: 'dept', before: headless, after: led }]);
  });

  it('is a platform admin\u2019s alone (40301)', async () => {
    const { start, users } = h();
    const [initiator, other] = await users(2);
    const role = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: uniq('none').toLowerCase(), name: 'None', permissions: [] },
    });
    const def = await h().publish(
      chain({ ...approval('x', []), assignee: { type: 'roles', roleIds: [role.body.data.id] } }),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const refused = await resume(id, { assignee_ids: [other.id] }, initiator.token);
    expect([refused.status, refused.body.code]).toEqual([403, 40301]);
  });
});
