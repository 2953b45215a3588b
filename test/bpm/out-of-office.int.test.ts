import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers, type User } from './fixtures.js';

// Out of office (BPM.md): while a period holds, tasks the rules give a user open for their
// stand-in, on their behalf; chains are followed; "move my open tasks" moves the pending ones.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);
const HOUR = 3_600_000;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const period = (standIn: User, extra: Record<string, unknown> = {}) => ({
  stand_in_id: standIn.id,
  from: new Date(Date.now() - HOUR).toISOString(),
  to: new Date(Date.now() + 72 * HOUR).toISOString(),
  ...extra,
});
const setAway = (
  token: string,
  body: Record<string, unknown>,
  path = '/api/v1/bpm/out-of-office',
) => platform.call('PUT', path, { token, body });

describe('out of office: the period', () => {
  it('is set, read and cleared by the user; the business audit records both', async () => {
    const [me, standIn] = await h().users(2);
    const set = await setAway(me.token, period(standIn, { comment: 'holiday' }));
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({
      user_id: me.id,
      stand_in_id: standIn.id,
      definition_keys: null,
      move_pending: false,
      comment: 'holiday',
      active: true,
      moved: 0,
    });
    const read = await platform.call('GET', '/api/v1/bpm/out-of-office', { token: me.token });
    expect(read.body.data).toMatchObject({ stand_in_id: standIn.id, active: true });
    const cleared = await platform.call('DELETE', '/api/v1/bpm/out-of-office', { token: me.token });
    expect([cleared.status, cleared.body.data]).toEqual([200, null]);
    const again = await platform.call('DELETE', '/api/v1/bpm/out-of-office', { token: me.token });
    expect(again.status).toBe(200);
    expect(
      (await platform.call('GET', '/api/v1/bpm/out-of-office', { token: me.token })).body.data,
    ).toBeNull();
    const audit = await platform.call('GET', `/api/v1/logs/audit?target_id=${me.id}&page_size=50`, {
      token: admin,
    });
    const actions = audit.body.data.list.map((e: any) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['out_of_office.set', 'out_of_office.clear']));
  });

  it('refuses a bad period with 40001 naming the field, and changes nothing', async () => {
    const [me, standIn] = await h().users(2);
    const disabled = (await h().users(1))[0];
    await platform.call('PUT', `/api/v1/users/${disabled.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    const now = Date.now();
    const cases: [Record<string, unknown>, string][] = [
      [
        period(standIn, {
          from: new Date(now + 5 * HOUR).toISOString(),
          to: new Date(now + HOUR).toISOString(),
        }),
        'to',
      ],
      [
        period(standIn, {
          from: new Date(now - 5 * HOUR).toISOString(),
          to: new Date(now - HOUR).toISOString(),
        }),
        'to',
      ],
      [period(me), 'stand_in_id'],
      [period(disabled), 'stand_in_id'],
      [{ ...period(standIn), stand_in_id: 987_654_321 }, 'stand_in_id'],
      [
        period(standIn, { definition_keys: [uniq('nokey').toLowerCase().replace(/_/g, '-')] }),
        'definition_keys',
      ],
      [period(standIn, { from: 'tomorrow' }), 'from'],
    ];
    for (const [body, field] of cases) {
      const res = await setAway(me.token, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 40001]);
      expect(res.body.data.fields.map((f: any) => f.field)).toContain(field);
    }
    expect(
      (await platform.call('GET', '/api/v1/bpm/out-of-office', { token: me.token })).body.data,
    ).toBeNull();
  });

  it('is set for someone else by a platform admin only (40301), for users of the tenant (404)', async () => {
    const [me, other, standIn] = await h().users(3);
    const path = `/api/v1/bpm/out-of-office/users/${other.id}`;
    const byPeer = await setAway(me.token, period(standIn), path);
    expect([byPeer.status, byPeer.body.code]).toEqual([403, 40301]);
    const byAdmin = await setAway(admin, period(standIn), path);
    expect(byAdmin.body.data).toMatchObject({ user_id: other.id, stand_in_id: standIn.id });
    const seen = await platform.call('GET', '/api/v1/bpm/out-of-office', { token: other.token });
    expect(seen.body.data.updated_by).not.toBe(other.id);
    const unknown = await setAway(
      admin,
      period(standIn),
      '/api/v1/bpm/out-of-office/users/987654321',
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, 40400]);
  });
});

describe('out of office: the tasks', () => {
  it('a new task opens for the stand-in, on behalf of the person away, and the timeline says so', async () => {
    const { publish, start, pendingTaskOf, act, get, users } = h();
    const [initiator, away, standIn] = await users(3);
    const def = await publish(chain(approval('n', [away.id])));
    await setAway(away.token, period(standIn));
    const id = (await start(initiator, def.key)).body.data.id;
    expect(await pendingTaskOf(away, id)).toBeUndefined();
    const task = await pendingTaskOf(standIn, id);
    expect(task).toMatchObject({ assignee_id: standIn.id, on_behalf_of_id: away.id });
    const entry = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
      (e: any) => e.action === 'stand_in',
    );
    expect(entry).toMatchObject({
      operator_id: 0,
      details: { user_id: away.id, stand_in_id: standIn.id },
    });
    const explained = await get(standIn, `/api/v1/bpm/tasks/${task.id}/explain`);
    expect(explained.body.data).toMatchObject({
      on_behalf_of_id: away.id,
      stand_in: { user_id: away.id },
    });
    const done = await act(standIn, task.id, 'approve', {});
    expect(done.body.data.instance.status).toBe('approved');
  });

  it('follows a chain; simulate names the stand-ins with the chain', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, a, b, c] = await users(4);
    const def = await publish(chain(approval('n', [a.id])));
    await setAway(a.token, period(b));
    await setAway(b.token, period(c));
    const simulated = await platform.call('POST', `/api/v1/bpm/definitions/${def.id}/simulate`, {
      token: admin,
      body: { form: { reason: 'r', days: 1 }, initiator_id: initiator.id },
    });
    expect(simulated.body.data.nodes[0]).toMatchObject({
      assignees: [c.id],
      stand_ins: [
        { user_id: a.id, stand_in_id: c.id, chain: [{ user_id: a.id }, { user_id: b.id }] },
      ],
    });
    const id = (await start(initiator, def.key)).body.data.id;
    expect(await pendingTaskOf(c, id)).toMatchObject({ on_behalf_of_id: a.id });
  });

  it('applies to the definitions it names only, and not before it begins', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, away, standIn] = await users(3);
    const named = await publish(chain(approval('n', [away.id])));
    const other = await publish(chain(approval('n', [away.id])));
    await setAway(away.token, period(standIn, { definition_keys: [named.key] }));
    const inNamed = (await start(initiator, named.key)).body.data.id;
    const inOther = (await start(initiator, other.key)).body.data.id;
    expect(await pendingTaskOf(standIn, inNamed)).toBeDefined();
    expect(await pendingTaskOf(away, inOther)).toMatchObject({ on_behalf_of_id: null });
    const later = { from: new Date(Date.now() + 24 * HOUR).toISOString() };
    await setAway(away.token, period(standIn, later));
    const notYet = (await start(initiator, named.key)).body.data.id;
    expect(await pendingTaskOf(away, notYet)).toBeDefined();
  });

  it('move_pending moves the open tasks to the stand-in now', async () => {
    const { publish, start, pendingTaskOf, users } = h();
    const [initiator, away, standIn] = await users(3);
    const def = await publish(chain(approval('n', [away.id])));
    const id = (await start(initiator, def.key)).body.data.id;
    expect(await pendingTaskOf(away, id)).toBeDefined();
    const set = await setAway(away.token, period(standIn, { move_pending: true }));
    expect(set.body.data.moved).toBe(1);
    expect(await pendingTaskOf(away, id)).toBeUndefined();
    expect(await pendingTaskOf(standIn, id)).toMatchObject({ on_behalf_of_id: away.id });
  });
});

describe('the people directory for pickers', () => {
  it('any signed-in user finds colleagues by name and resolves ids to names, nothing more', async () => {
    const [me, colleague] = await h().users(2);
    const found = await platform.call(
      'GET',
      `/api/v1/bpm/directory/users?keyword=${encodeURIComponent(colleague.username)}`,
      { token: me.token },
    );
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([
      { id: colleague.id, name: expect.any(String), dept_id: null, dept_name: null, active: true },
    ]);
    const byIds = await platform.call(
      'GET',
      `/api/v1/bpm/directory/users?ids=${colleague.id},${me.id}`,
      {
        token: me.token,
      },
    );
    expect(byIds.body.data.map((p: any) => p.id).sort()).toEqual([me.id, colleague.id].sort());
    const bad = await platform.call('GET', '/api/v1/bpm/directory/users?ids=1,x', {
      token: me.token,
    });
    expect([bad.status, bad.body.code]).toEqual([400, 40000]);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    const tooMany = await platform.call('GET', `/api/v1/bpm/directory/users?ids=${many}`, {
      token: me.token,
    });
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 40000]);
    const wild = await platform.call('GET', '/api/v1/bpm/directory/users?keyword=%25', {
      token: me.token,
    });
    expect(wild.body.data.length).toBeLessThanOrEqual(20);
    const depts = await platform.call('GET', '/api/v1/bpm/directory/departments', {
      token: me.token,
    });
    expect(depts.status).toBe(200);
    expect(Array.isArray(depts.body.data)).toBe(true);
  });
});
