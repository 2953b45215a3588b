import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, createDefinition, createUserWith, flowHelpers } from './fixtures.js';

// BPM.md "Pre-flight at submission": a start (user or internal) and a resubmit refuse what the
// submitter can correct, creating nothing; what they cannot correct still suspends.

const TOKEN = 'internal-Pf3-7qW9-Zx2K-token';
let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);
const db = () => platform.kernel.database.db.withTables<BpmTables>();

beforeAll(async () => {
  platform = await startTestPlatform({ BPM_INTERNAL_TOKEN: TOKEN });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const FORM = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'input', required: true },
    { key: 'amount', label: 'Amount', type: 'number' },
    { key: 'dept', label: 'Department', type: 'number' },
  ],
};

/** A published flow-form definition on FORM. */
async function publish(tree: unknown, extra: Record<string, unknown> = {}) {
  const created = await createDefinition(platform, admin, {
    form_schema: FORM,
    node_tree: tree,
    ...extra,
  });
  expect(created.status).toBe(200);
  const res = await platform.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token: admin },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; key: string };
}

const instancesOf = async (definitionId: number) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM bpm_instances
      WHERE definition_id = ${definitionId}`.execute(db())
  ).rows[0]!.n;

const byAmount = (big: Record<string, unknown>) =>
  chain({
    id: 'size',
    type: 'branch',
    name: 'Size',
    branches: [
      {
        id: 'big',
        name: 'Big',
        condition: { field: 'amount', op: 'gt', value: 1000 },
        child: big,
      },
      { id: 'small', name: 'Small', default: true, child: null },
    ],
  });

const pick = { ...approval('pick', []), assignee: { type: 'initiator_selected' } };

describe('pre-flight at submission', () => {
  it('refuses a step whose approvers the initiator selects, left unselected (40001), creating nothing', async () => {
    const { start, users } = h();
    const [initiator, other] = await users(2);
    const def = await publish(chain(pick));
    for (const selected of [undefined, { pick: [] }, { pick: [987_654] }]) {
      const res = await start(
        initiator,
        def.key,
        { reason: 'r' },
        selected ? { selected_assignees: selected } : {},
      );
      expect([res.status, res.body.code]).toEqual([400, 40001]);
      expect(res.body.data.fields.map((f: any) => f.field)).toEqual(['selected_assignees.pick']);
    }
    expect(await instancesOf(def.id)).toBe(0);
    const ok = await start(
      initiator,
      def.key,
      { reason: 'r' },
      {
        selected_assignees: { pick: [other.id] },
      },
    );
    expect(ok.body.data.status).toBe('running');
  });

  it('refuses a selection for a step that does not select (40001)', async () => {
    const { start, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(chain(approval('fixed', [a.id])));
    const res = await start(
      initiator,
      def.key,
      { reason: 'r' },
      {
        selected_assignees: { fixed: [a.id] },
      },
    );
    expect([res.status, res.body.code]).toEqual([400, 40001]);
    expect(res.body.data.fields.map((f: any) => f.field)).toEqual(['selected_assignees.fixed']);
    expect(await instancesOf(def.id)).toBe(0);
  });

  it('refuses a condition on an optional field left empty (40002 naming the field)', async () => {
    const { start, users } = h();
    const [initiator, a] = await users(2);
    const def = await publish(byAmount(approval('cfo', [a.id])));
    const res = await start(initiator, def.key, { reason: 'r' });
    expect([res.status, res.body.code]).toEqual([400, 40002]);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({ field: 'amount', rule: 'required' }),
    ]);
    expect(await instancesOf(def.id)).toBe(0);
    const ok = await start(initiator, def.key, { reason: 'r', amount: 5 });
    expect(ok.body.data.status).toBe('approved');
  });

  it('refuses an empty or unknown department for a leader read from the form (40002)', async () => {
    const { start, users } = h();
    const [initiator] = await users(1);
    const def = await publish(
      chain({
        ...approval('lead', []),
        assignee: { type: 'dept_leader', source: 'form_field', field: 'dept' },
      }),
    );
    const empty = await start(initiator, def.key, { reason: 'r' });
    expect([empty.status, empty.body.code]).toEqual([400, 40002]);
    expect(empty.body.data.fields).toEqual([
      expect.objectContaining({ field: 'dept', rule: 'required' }),
    ]);
    const unknown = await start(initiator, def.key, { reason: 'r', dept: 987_654 });
    expect(unknown.body.data.fields).toEqual([
      expect.objectContaining({ field: 'dept', rule: 'option' }),
    ]);
    expect(await instancesOf(def.id)).toBe(0);
  });

  it('still suspends on what the submitter cannot correct: a role nobody holds', async () => {
    const { start, users } = h();
    const [initiator] = await users(1);
    const role = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: uniq('empty').toLowerCase(), name: 'Nobody', permissions: [] },
    });
    const def = await publish(
      chain({
        ...approval('role', []),
        assignee: { type: 'roles', roleIds: [role.body.data.id] },
        emptyAssignee: { strategy: 'suspend' },
      }),
    );
    const res = await start(initiator, def.key, { reason: 'r' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'suspended',
      suspend_reason: { code: 'empty_assignee', node_id: 'role' },
    });
  });

  it('applies to internal starts of business definitions', async () => {
    const initiator = await createUserWith(platform, []);
    const bizType = uniq('contract').toLowerCase();
    const def = await publish(chain(pick), { form_mode: 'business', biz_type: bizType });
    const res = await platform.call('POST', '/api/v1/bpm/internal/instances', {
      headers: { 'x-internal-token': TOKEN },
      body: {
        tenant_id: 1,
        initiator_id: initiator.id,
        definition_key: def.key,
        biz_id: uniq('C'),
        form: { reason: 'r' },
      },
    });
    expect([res.status, res.body.code]).toEqual([400, 40001]);
    expect(await instancesOf(def.id)).toBe(0);
  });

  it('applies to resubmits: a new form that cannot decide the route changes nothing', async () => {
    const { start, users, pendingTaskOf, act, get } = h();
    const [initiator, a, cfo] = await users(3);
    const def = await publish(
      chain(approval('first', [a.id], { onReject: 'initiator' }), {
        id: 'size',
        type: 'branch',
        name: 'Size',
        branches: [
          {
            id: 'big',
            name: 'Big',
            condition: { field: 'amount', op: 'gt', value: 1000 },
            child: approval('cfo', [cfo.id]),
          },
          { id: 'small', name: 'Small', default: true, child: null },
        ],
      }),
    );
    const id = (await start(initiator, def.key, { reason: 'r', amount: 5 })).body.data.id;
    await act(a, (await pendingTaskOf(a, id)).id, 'reject', { comment: 'more detail' });
    const refused = await platform.call('POST', `/api/v1/bpm/instances/${id}/resubmit`, {
      token: initiator.token,
      body: { form: { reason: 'again' } },
    });
    expect([refused.status, refused.body.code]).toEqual([400, 40002]);
    expect(refused.body.data.fields).toEqual([
      expect.objectContaining({ field: 'amount', rule: 'required' }),
    ]);
    const detail = (await get(initiator, `/api/v1/bpm/instances/${id}`)).body.data;
    expect(detail).toMatchObject({ status: 'running', round: 1, form: { reason: 'r', amount: 5 } });
    expect(detail.actions).toContain('resubmit');
  });
});
