import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, createDefinition, createUserWith, flowHelpers } from './fixtures.js';

// Assignee rules against the database, self-approval, simulate, the diagram, and the contract.

const TOKEN = 'internal-Qz3-8vB1-Rt6Y-token';
let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);
const db = () => platform.kernel.database.db.withTables<BpmTables>();

beforeAll(async () => {
  platform = await startTestPlatform({ BPM_INTERNAL_TOKEN: TOKEN });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

async function department(leaderId: number | null, parentId?: number) {
  const res = await platform.call('POST', '/api/v1/departments', {
    token: admin,
    body: { name: uniq('dept'), leader_id: leaderId, ...(parentId ? { parent_id: parentId } : {}) },
  });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

async function userIn(deptId: number) {
  const username = uniq('member');
  const created = await platform.call('POST', '/api/v1/users', {
    token: admin,
    body: { username, password: 'Test-Passw0rd!', dept_id: deptId },
  });
  expect(created.status).toBe(200);
  const session = await platform.login(username, 'Test-Passw0rd!', undefined);
  return {
    id: created.body.data.id as number,
    username,
    password: 'Test-Passw0rd!',
    token: session.access_token,
  };
}

const DEPT_FORM = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'textarea', required: true },
    { key: 'days', label: 'Days', type: 'number', required: true },
    { key: 'dept', label: 'Department', type: 'number' },
  ],
};

describe('assignees resolved against the database', () => {
  it('gives every holder of a role a task', async () => {
    const { publish, start, get } = h();
    const initiator = await createUserWith(platform, []);
    const role = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: uniq('approvers').toLowerCase(), name: 'Approvers', permissions: [] },
    });
    const holders = [];
    for (let i = 0; i < 2; i++) {
      const u = await platform.call('POST', '/api/v1/users', {
        token: admin,
        body: {
          username: uniq('holder'),
          password: 'Test-Passw0rd!',
          role_ids: [role.body.data.id],
        },
      });
      holders.push(u.body.data.id as number);
    }
    const def = await publish(
      chain({
        ...approval('n', []),
        assignee: { type: 'roles', roleIds: [role.body.data.id] },
        mode: 'and',
      }),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const detail = await get(initiator, `/api/v1/bpm/instances/${id}`);
    expect(detail.body.data.tasks.map((t: any) => t.assignee_id).sort()).toEqual(holders.sort());
  });

  it('takes the leader of the initiator\u2019s department, or of its parent at level 2', async () => {
    const { publish, start, get } = h();
    const [bigBoss, boss] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const top = await department(bigBoss.id);
    const team = await department(boss.id, top);
    const initiator = await userIn(team);
    const def = await publish(
      chain(
        { ...approval('l1', []), assignee: { type: 'dept_leader', source: 'initiator' } },
        { ...approval('l2', []), assignee: { type: 'dept_leader', source: 'initiator', level: 2 } },
      ),
    );
    const id = (await start(initiator, def.key)).body.data.id;
    const first = await get(initiator, `/api/v1/bpm/instances/${id}`);
    expect(first.body.data.tasks.map((t: any) => [t.node_id, t.assignee_id])).toEqual([
      ['l1', boss.id],
    ]);
    await h().act(boss, first.body.data.tasks[0].id, 'approve', {});
    const second = await get(initiator, `/api/v1/bpm/instances/${id}`);
    expect(second.body.data.tasks.map((t: any) => [t.node_id, t.assignee_id])).toEqual([
      ['l1', boss.id],
      ['l2', bigBoss.id],
    ]);
  });
});

describe('self-approval', () => {
  it('refuses an initiator who selects themselves, creating nothing (40001)', async () => {
    const { publish, start, users, get } = h();
    const [initiator, other] = await users(2);
    const def = await publish(
      chain({ ...approval('pick', []), assignee: { type: 'initiator_selected' } }),
    );
    for (const pick of [[initiator.id], [initiator.id, other.id]]) {
      const refused = await start(
        initiator,
        def.key,
        { reason: 'r', days: 1 },
        { selected_assignees: { pick } },
      );
      expect([refused.status, refused.body.code]).toEqual([400, 40001]);
      expect(refused.body.data.fields).toEqual([
        expect.objectContaining({ field: 'selected_assignees.pick', rule: 'option' }),
      ]);
    }
    const mine = await get(initiator, '/api/v1/bpm/instances/my?page_size=100');
    expect(mine.body.data.total).toBe(0);
  });

  it('keeps the initiator when the node sets allowInitiator', async () => {
    const { publish, start, users } = h();
    const [initiator] = await users(1);
    const def = await publish(
      chain({
        ...approval('pick', []),
        assignee: { type: 'initiator_selected' },
        allowInitiator: true,
      }),
    );
    const res = await start(
      initiator,
      def.key,
      { reason: 'r', days: 1 },
      { selected_assignees: { pick: [initiator.id] } },
    );
    expect(res.body.data.tasks.map((t: any) => t.assignee_id)).toEqual([initiator.id]);
  });

  it('drops an initiator who leads the department named in the form', async () => {
    const initiator = await createUserWith(platform, []);
    const dept = await department(initiator.id);
    const created = await createDefinition(platform, admin, {
      form_schema: DEPT_FORM,
      node_tree: chain({
        ...approval('lead', []),
        assignee: { type: 'dept_leader', source: 'form_field', field: 'dept' },
      }),
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const res = await h().start(initiator, created.body.data.key, { reason: 'r', days: 1, dept });
    expect(res.body.data).toMatchObject({
      status: 'suspended',
      suspend_reason: { node_id: 'lead' },
    });
  });

  it('refuses a transfer, delegation or add-sign to the initiator (40001)', async () => {
    const { publish, start, pendingTaskOf, act, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('n', [a.id], { mode: 'and' })));
    const id = (await start(initiator, def.key)).body.data.id;
    const task = await pendingTaskOf(a, id);
    for (const [action, body] of [
      ['transfer', { to_user_id: initiator.id }],
      ['delegate', { to_user_id: initiator.id }],
      ['add-sign', { user_ids: [initiator.id] }],
    ] as const) {
      const res = await act(a, task.id, action, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(40001);
    }
  });
});

describe('a leader who starts their own request', () => {
  it('goes to the next level up by default; `skip` passes the step, saying why', async () => {
    const { publish, start, get } = h();
    const boss = await createUserWith(platform, []);
    const top = await department(boss.id);
    const lead = await userIn(await department(null, top));
    // `lead` is made the leader of their own department once they are in it.
    const own = (await get(admin, `/api/v1/users/${lead.id}`)).body.data.dept_id as number;
    await platform.call('PUT', `/api/v1/departments/${own}`, {
      token: admin,
      body: { leader_id: lead.id },
    });
    const step = (extra: Record<string, unknown>) =>
      chain({
        ...approval('leader', []),
        assignee: { type: 'dept_leader', source: 'initiator', ...extra },
      });
    const upward = await publish(step({}));
    const started = await start(lead, upward.key);
    expect(started.body.data.status).toBe('running');
    expect(started.body.data.tasks.map((t: any) => t.assignee_id)).toEqual([boss.id]);
    const explained = await platform.call(
      'GET',
      `/api/v1/bpm/tasks/${started.body.data.tasks[0].id}/explain`,
      { token: boss.token },
    );
    expect(explained.body.data.resolution.note).toMatch(/initiator leads department/);

    const skipping = await publish(step({ initiatorIsLeader: 'skip' }));
    const passed = await start(lead, skipping.key);
    expect(passed.body.data.status).toBe('approved');
    const entry = (
      await get(lead, `/api/v1/bpm/instances/${passed.body.data.id}/timeline`)
    ).body.data.find((e: any) => e.action === 'auto_pass');
    expect(entry.comment).toMatch(/initiator leads this department/);
  });
});

describe('simulate', () => {
  it('answers 40001 listing every problem of a malformed draft, as publish does', async () => {
    const created = await createDefinition(platform, admin, {
      node_tree: chain(
        { id: 'split', type: 'branch', name: 'Split' },
        { id: 'x', type: 'approval', name: 'X' },
      ),
    });
    expect(created.status).toBe(200);
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/simulate`,
      {
        token: admin,
        body: { form: { reason: 'r', days: 1 } },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    const fields = res.body.data.fields.map((f: any) => f.field);
    expect(fields).toContain('node_tree.split');
    expect(fields).toContain('node_tree.x');
  });

  it('accepts selected_assignees for initiator-selected nodes', async () => {
    const other = await createUserWith(platform, []);
    const created = await createDefinition(platform, admin, {
      node_tree: chain({ ...approval('pick', []), assignee: { type: 'initiator_selected' } }),
    });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/simulate`,
      {
        token: admin,
        body: { form: { reason: 'r', days: 1 }, selected_assignees: { pick: [other.id] } },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.nodes[0]).toMatchObject({ node_id: 'pick', assignees: [other.id] });
    expect(res.body.data.failures).toEqual([]);
  });
});

describe('the diagram', () => {
  const tree = (approverId: number) =>
    chain(
      {
        id: 'split',
        type: 'branch',
        name: 'By days',
        branches: [
          {
            id: 'long',
            name: 'Long',
            condition: { field: 'days', op: 'gt', value: 5 },
            child: approval('hr', [approverId]),
          },
          { id: 'short', name: 'Short', default: true, child: null },
        ],
      },
      approval('lead', [approverId]),
      approval('final', [approverId]),
    );

  it('marks nodes done, active, skipped (branches not taken) and pending (not reached)', async () => {
    const { publish, start, users, get } = h();
    const [initiator, a] = await users(2);
    const def = await publish(tree(a.id));
    const id = (await start(initiator, def.key, { reason: 'r', days: 1 })).body.data.id;
    const diagram = (await get(initiator, `/api/v1/bpm/instances/${id}/diagram`)).body.data.tree;
    const split = diagram.child;
    expect([
      diagram.state,
      split.state,
      split.branches[0].child.state,
      split.child.state,
      split.child.child.state,
    ]).toEqual(['done', 'done', 'skipped', 'active', 'pending']);
  });

  it('marks the node an instance is suspended at as suspended', async () => {
    const { publish, start, users, get } = h();
    const [initiator, gone] = await users(2);
    // A user who exists (publishing refuses unknown ids) but is disabled: nobody to approve.
    const def = await publish(chain(approval('nobody', [gone.id])));
    await platform.call('PUT', `/api/v1/users/${gone.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    const started = await start(initiator, def.key);
    expect(started.body.data.status).toBe('suspended');
    const diagram = (await get(initiator, `/api/v1/bpm/instances/${started.body.data.id}/diagram`))
      .body.data.tree;
    expect(diagram.child.state).toBe('suspended');
  });
});

describe('the contract', () => {
  it('answers the startable list in the list shape', async () => {
    const def = await h().publish(chain(approval('n', [1])));
    const res = await platform.call('GET', '/api/v1/bpm/startable?page_size=100', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ page: 1, page_size: 100 });
    expect(res.body.data.total).toBe(res.body.data.list.length);
    expect(res.body.data.list.map((d: any) => d.key)).toContain(def.key);
  });

  it('refuses to start a suspended definition (40900), by key or by id', async () => {
    const { publish, start, users } = h();
    const [initiator] = await users(1);
    const def = await publish(chain(approval('n', [1])));
    await platform.call('POST', `/api/v1/bpm/definitions/${def.id}/suspend`, { token: admin });
    const byKey = await start(initiator, def.key);
    expect([byKey.status, byKey.body.code]).toEqual([409, 40900]);
    const byId = await platform.call('POST', '/api/v1/bpm/instances', {
      token: initiator.token,
      body: { definition_id: def.id, form: { reason: 'r', days: 1 } },
    });
    expect([byId.status, byId.body.code]).toEqual([409, 40900]);
  });

  it('hides another tenant\u2019s instance from this tenant\u2019s platform admin (404)', async () => {
    const code = uniq('t').toLowerCase();
    await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code, name: 'Other', admin_username: 'boss', admin_password: 'Other-Passw0rd!' },
    });
    const boss = (await platform.login('boss', 'Other-Passw0rd!', code)).access_token;
    const me = await platform.call('GET', '/api/v1/me', { token: boss });
    const def = await createDefinition(platform, boss, {
      node_tree: chain(approval('n', [me.body.data.id], { allowInitiator: true })),
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${def.body.data.id}/publish`, {
      token: boss,
    });
    const started = await platform.call('POST', '/api/v1/bpm/instances', {
      token: boss,
      body: { definition_key: def.body.data.key, form: { reason: 'r', days: 1 } },
    });
    expect(started.status).toBe(200);
    const id = started.body.data.id;
    const taskId = started.body.data.tasks[0].id;
    for (const [method, path] of [
      ['GET', `/api/v1/bpm/instances/${id}`],
      ['GET', `/api/v1/bpm/instances/${id}/diagram`],
      ['GET', `/api/v1/bpm/instances/${id}/timeline`],
      ['GET', `/api/v1/bpm/tasks/${taskId}`],
      ['POST', `/api/v1/bpm/instances/${id}/terminate`],
      ['POST', `/api/v1/bpm/tasks/${taskId}/approve`],
    ] as const) {
      const res = await platform.call(method, path, {
        token: admin,
        body: method === 'POST' ? {} : undefined,
      });
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('names the initiator on the start entry of a business instance, and the callback carries its finished_at', async () => {
    const initiator = await createUserWith(platform, []);
    const bizType = uniq('order').toLowerCase();
    const def = await createDefinition(platform, admin, {
      form_mode: 'business',
      biz_type: bizType,
      node_tree: chain(approval('n', [1])),
    });
    await platform.call('POST', `/api/v1/bpm/definitions/${def.body.data.id}/publish`, {
      token: admin,
    });
    const started = await platform.call('POST', '/api/v1/bpm/internal/instances', {
      headers: { 'X-Internal-Token': TOKEN },
      body: {
        tenant_id: 1,
        initiator_id: initiator.id,
        definition_key: def.body.data.key,
        biz_id: uniq('o'),
        form: { reason: 'r', days: 1 },
      },
    });
    expect(started.status).toBe(200);
    const id = started.body.data.id;
    const entries = (
      await platform.call('GET', `/api/v1/bpm/instances/${id}/timeline`, { token: initiator.token })
    ).body.data;
    expect(entries[0]).toMatchObject({
      action: 'start',
      operator_id: initiator.id,
      operator_name: initiator.username,
    });
    const task = (await platform.call('GET', `/api/v1/bpm/instances/${id}`, { token: admin })).body
      .data.tasks[0];
    const done = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: admin,
      body: {},
    });
    const finishedAt = done.body.data.instance.finished_at;
    const row = await db()
      .selectFrom('bpm_outbox')
      .selectAll()
      .where('kind', '=', 'callback')
      .where('target', '=', bizType)
      .executeTakeFirstOrThrow();
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
    expect(payload.finished_at).toBe(finishedAt);
  });
});
