import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers } from './fixtures.js';

// What the command path reads from caches instead of the database (issue 20) must never be
// older than the change that invalidated it: each change below is seen at the next request.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const updateUser = async (userId: number, body: Record<string, unknown>) => {
  const res = await platform.call('PUT', `/api/v1/users/${userId}`, { token: admin, body });
  expect(res.status, res.text).toBe(200);
};

async function department(leaderId: number) {
  const res = await platform.call('POST', '/api/v1/departments', {
    token: admin,
    body: { name: uniq('dept'), leader_id: leaderId },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data.id as number;
}

describe('the engine\u2019s directory (the user cache)', () => {
  it('sees an assignee disabled or enabled through identity at the next start', async () => {
    const { publish, start, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('n', [approver.id])));
    expect((await start(initiator, def.key)).body.data.status).toBe('running');
    await updateUser(approver.id, { status: 'disabled' });
    const suspended = await start(initiator, def.key);
    expect(suspended.body.data).toMatchObject({
      status: 'suspended',
      suspend_reason: { code: 'empty_assignee' },
    });
    await updateUser(approver.id, { status: 'active' });
    expect((await start(initiator, def.key)).body.data.status).toBe('running');
  });

  it('sees a role granted or taken through identity at the initiator\u2019s next start', async () => {
    const { publish, start, users } = h();
    const [initiator, approver] = await users(2);
    const role = await platform.call('POST', '/api/v1/roles', {
      token: admin,
      body: { code: uniq('starter').toLowerCase(), name: 'Starter', permissions: [] },
    });
    expect(role.status).toBe(200);
    const roleId = role.body.data.id as number;
    const def = await publish(chain(approval('n', [approver.id])), {
      starters: { role_ids: [roleId] },
    });
    expect((await start(initiator, def.key)).body.code).toBe(40301);
    await updateUser(initiator.id, { role_ids: [roleId] });
    expect((await start(initiator, def.key)).status).toBe(200);
    await updateUser(initiator.id, { role_ids: [] });
    expect((await start(initiator, def.key)).body.code).toBe(40301);
  });

  it('routes by the department the initiator moved to before their next start', async () => {
    const { publish, start, users, pendingTaskOf } = h();
    const [initiator, leaderA, leaderB] = await users(3);
    const [deptA, deptB] = [await department(leaderA.id), await department(leaderB.id)];
    const def = await publish(
      chain({
        ...approval('lead', []),
        assignee: { type: 'dept_leader', source: 'initiator' },
      }),
    );
    await updateUser(initiator.id, { dept_id: deptA });
    const first = (await start(initiator, def.key)).body.data.id;
    expect(await pendingTaskOf(leaderA, first)).toBeDefined();
    await updateUser(initiator.id, { dept_id: deptB });
    const second = (await start(initiator, def.key)).body.data.id;
    expect(await pendingTaskOf(leaderB, second)).toBeDefined();
    expect(await pendingTaskOf(leaderA, second)).toBeUndefined();
  });
});

describe('out-of-office periods (the absence cache)', () => {
  const HOUR = 3_600_000;
  const setAway = (token: string, body: Record<string, unknown>) =>
    platform.call('PUT', '/api/v1/bpm/out-of-office', { token, body });

  it('opens tasks for the stand-in from the next start after a period is set, changed or cleared', async () => {
    const { publish, start, users, pendingTaskOf } = h();
    const [initiator, away, standIn, other] = await users(4);
    const def = await publish(chain(approval('n', [away.id])));
    const holderOf = async (instanceId: number) => {
      for (const user of [away, standIn, other])
        if (await pendingTaskOf(user, instanceId)) return user.id;
      return null;
    };
    const next = async () => holderOf((await start(initiator, def.key)).body.data.id);
    expect(await next()).toBe(away.id);
    const from = new Date(Date.now() - HOUR).toISOString();
    const to = new Date(Date.now() + HOUR).toISOString();
    expect((await setAway(away.token, { stand_in_id: standIn.id, from, to })).status).toBe(200);
    expect(await next()).toBe(standIn.id);
    expect((await setAway(away.token, { stand_in_id: other.id, from, to })).status).toBe(200);
    expect(await next()).toBe(other.id);
    const cleared = await platform.call('DELETE', '/api/v1/bpm/out-of-office', {
      token: away.token,
    });
    expect(cleared.status).toBe(200);
    expect(await next()).toBe(away.id);
  });

  it('applies a period that names definitions to those only', async () => {
    const { publish, start, users, pendingTaskOf } = h();
    const [initiator, away, standIn] = await users(3);
    const [named, unnamed] = [
      await publish(chain(approval('n', [away.id]))),
      await publish(chain(approval('n', [away.id]))),
    ];
    const set = await setAway(away.token, {
      stand_in_id: standIn.id,
      from: new Date(Date.now() - HOUR).toISOString(),
      to: new Date(Date.now() + HOUR).toISOString(),
      definition_keys: [named.key],
    });
    expect(set.status).toBe(200);
    const viaNamed = (await start(initiator, named.key)).body.data.id;
    const viaUnnamed = (await start(initiator, unnamed.key)).body.data.id;
    expect(await pendingTaskOf(standIn, viaNamed)).toBeDefined();
    expect(await pendingTaskOf(away, viaUnnamed)).toBeDefined();
  });
});

describe('definition versions (kept in process)', () => {
  it('runs each instance on the version it started on, after a draft changed and was published', async () => {
    const { publish, start, users, pendingTaskOf, act } = h();
    const [initiator, first, second] = await users(3);
    const v1 = await publish(chain(approval('one', [first.id]), approval('two', [second.id])));
    const old = (await start(initiator, v1.key)).body.data.id;
    const draft = await platform.call('POST', `/api/v1/bpm/definitions/${v1.id}/new-version`, {
      token: admin,
    });
    expect(draft.status).toBe(200);
    // The draft is read (and changed) before it is published: neither may reach v1's instances.
    const changed = await platform.call('PUT', `/api/v1/bpm/definitions/${draft.body.data.id}`, {
      token: admin,
      body: { node_tree: chain(approval('one', [first.id])) },
    });
    expect(changed.status, changed.text).toBe(200);
    const v2 = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${draft.body.data.id}/publish`,
      { token: admin },
    );
    expect(v2.status).toBe(200);
    const fresh = (await start(initiator, v1.key)).body.data.id;
    for (const id of [old, fresh]) {
      const approved = await act(first, (await pendingTaskOf(first, id)).id, 'approve');
      expect(approved.status).toBe(200);
    }
    const status = async (id: number) =>
      (await platform.call('GET', `/api/v1/bpm/instances/${id}`, { token: admin })).body.data
        .status;
    expect(await status(fresh)).toBe('approved');
    expect(await status(old)).toBe('running');
    expect(await pendingTaskOf(second, old)).toBeDefined();
  });
});
