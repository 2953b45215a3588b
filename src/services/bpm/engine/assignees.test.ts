import { describe, expect, it } from 'vitest';
import { resolveAssignees, resolveNodeAssignees, type AssigneeSource } from './assignees.js';
import { DEFAULT_DIRECTORY, approval, testDirectory, users } from './directory.test-support.js';
import type { AssigneeRule } from './types.js';

const source = (over: Partial<AssigneeSource> = {}): AssigneeSource => ({
  form: {},
  initiatorId: 999,
  initiatorDeptId: 3,
  selectedAssignees: {},
  ...over,
});

const resolve = (rule: AssigneeRule, over: Partial<AssigneeSource> = {}) =>
  resolveAssignees(rule, source(over), 'n', DEFAULT_DIRECTORY);

describe('resolveAssignees: users', () => {
  it('keeps only existing active users, each once, in the rule order', async () => {
    const r = await resolve(users(4, 2, 99, 4, 500, 1));
    expect(r.userIds).toEqual([4, 2, 1]);
    expect(r.resolution).toMatchObject({
      rule: 'users',
      candidates: [4, 2, 99, 500, 1],
      dropped: [
        { userId: 99, reason: 'inactive' },
        { userId: 500, reason: 'unknown' },
      ],
      userIds: [4, 2, 1],
    });
  });
});

describe('resolveAssignees: roles', () => {
  it('takes the active holders of any role, once each', async () => {
    const r = await resolve({ type: 'roles', roleIds: [7, 8] });
    expect(r.userIds).toEqual([5, 6, 8]);
    expect(r.resolution).toMatchObject({
      roleIds: [7, 8],
      dropped: [{ userId: 99, reason: 'inactive' }],
    });
  });

  it('finds nobody for a role nobody holds, and says so', async () => {
    const r = await resolve({ type: 'roles', roleIds: [42] });
    expect(r.userIds).toEqual([]);
    expect(r.resolution.note).toMatch(/nobody holds/);
  });
});

describe('resolveAssignees: dept_leader', () => {
  it('level 1 is the leader of the initiator department itself', async () => {
    const r = await resolve({ type: 'dept_leader', source: 'initiator' }, { initiatorDeptId: 2 });
    expect(r.userIds).toEqual([22]);
    expect(r.resolution).toMatchObject({
      deptId: 2,
      leaderDeptId: 2,
      level: 1,
      source: 'initiator',
    });
  });

  it('level 2 walks up to the parent department', async () => {
    const r = await resolve(
      { type: 'dept_leader', source: 'initiator', level: 2 },
      { initiatorDeptId: 2 },
    );
    expect(r.userIds).toEqual([21]);
    expect(r.resolution).toMatchObject({ deptId: 2, leaderDeptId: 1 });
  });

  it('level 3 from department 3 reaches the top department', async () => {
    const r = await resolve({ type: 'dept_leader', source: 'initiator', level: 3 });
    expect(r.userIds).toEqual([21]);
  });

  it('finds nobody above the top department', async () => {
    const r = await resolve({ type: 'dept_leader', source: 'initiator', level: 4 });
    expect(r.userIds).toEqual([]);
    expect(r.resolution.note).toMatch(/has no level 4/);
  });

  it('finds nobody when the department has no leader', async () => {
    const r = await resolve({ type: 'dept_leader', source: 'initiator' });
    expect(r.userIds).toEqual([]);
    expect(r.resolution.note).toBe('department 3 has no leader');
  });

  it('finds nobody when the initiator has no department', async () => {
    const r = await resolve(
      { type: 'dept_leader', source: 'initiator' },
      { initiatorDeptId: null },
    );
    expect(r.userIds).toEqual([]);
    expect(r.resolution.note).toMatch(/no department/);
  });

  it('finds nobody when the department does not exist', async () => {
    const r = await resolve({ type: 'dept_leader', source: 'initiator' }, { initiatorDeptId: 77 });
    expect(r.resolution.note).toBe('department 77 does not exist');
  });

  it('reads the department id from a form field', async () => {
    const rule: AssigneeRule = {
      type: 'dept_leader',
      source: 'form_field',
      field: 'dept',
      level: 2,
    };
    const r = await resolve(rule, { form: { dept: 2 } });
    expect(r.userIds).toEqual([21]);
    expect(r.resolution).toMatchObject({ source: 'form_field', field: 'dept', deptId: 2 });
  });

  it('finds nobody when the form field holds no department id', async () => {
    const rule: AssigneeRule = { type: 'dept_leader', source: 'form_field', field: 'dept' };
    expect((await resolve(rule, { form: { dept: 'two' } })).userIds).toEqual([]);
    expect((await resolve(rule, { form: {} })).resolution.note).toMatch(/holds no department id/);
  });

  it('drops an inactive leader', async () => {
    const directory = testDirectory([{ id: 1, active: false }], [{ id: 9, leaderId: 1 }]);
    const rule: AssigneeRule = { type: 'dept_leader', source: 'initiator' };
    const r = await resolveAssignees(rule, source({ initiatorDeptId: 9 }), 'n', directory);
    expect(r.userIds).toEqual([]);
    expect(r.resolution.dropped).toEqual([{ userId: 1, reason: 'inactive' }]);
  });
});

describe('resolveAssignees: initiator_selected', () => {
  it('takes the users the initiator selected for this node, active ones only', async () => {
    const r = await resolve(
      { type: 'initiator_selected' },
      { selectedAssignees: { n: [3, 99, 3, 4], other: [9] } },
    );
    expect(r.userIds).toEqual([3, 4]);
  });

  it('finds nobody when nothing was selected for the node', async () => {
    const r = await resolve({ type: 'initiator_selected' }, { selectedAssignees: { other: [9] } });
    expect(r.userIds).toEqual([]);
    expect(r.resolution.note).toMatch(/selected nobody/);
  });
});

describe('resolveNodeAssignees: empty-assignee strategies', () => {
  const nobody = users(99);

  it('reports no strategy when the rule finds someone', async () => {
    const r = await resolveNodeAssignees(approval('n', users(1)), source(), DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'tasks', userIds: [1], strategy: null, fallback: null });
  });

  it('suspends by default', async () => {
    const r = await resolveNodeAssignees(approval('n', nobody), source(), DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'suspend', strategy: 'suspend' });
  });

  it('auto-passes with auto_pass', async () => {
    const node = approval('n', nobody, { emptyAssignee: { strategy: 'auto_pass' } });
    expect((await resolveNodeAssignees(node, source(), DEFAULT_DIRECTORY)).outcome).toBe(
      'auto_pass',
    );
  });

  it('uses the usable fallback users with fallback_users', async () => {
    const node = approval('n', nobody, {
      emptyAssignee: { strategy: 'fallback_users', userIds: [99, 7] },
    });
    const r = await resolveNodeAssignees(node, source(), DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'tasks', userIds: [7], strategy: 'fallback_users' });
    expect(r.fallback?.dropped).toEqual([{ userId: 99, reason: 'inactive' }]);
  });

  it('suspends when no fallback user is usable', async () => {
    const node = approval('n', nobody, {
      emptyAssignee: { strategy: 'fallback_users', userIds: [99, 500] },
    });
    const r = await resolveNodeAssignees(node, source(), DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'suspend', userIds: [], strategy: 'fallback_users' });
  });
});

describe('resolveNodeAssignees: no self-approval', () => {
  it('drops the initiator, with the reason, and applies the empty-assignee strategy', async () => {
    const r = await resolveNodeAssignees(
      approval('n', users(1)),
      source({ initiatorId: 1 }),
      DEFAULT_DIRECTORY,
    );
    expect(r).toMatchObject({ outcome: 'suspend', userIds: [] });
    expect(r.resolution.dropped).toEqual([{ userId: 1, reason: 'initiator' }]);
  });

  it('drops the initiator from the fallback users too', async () => {
    const node = approval('n', users(99), {
      emptyAssignee: { strategy: 'fallback_users', userIds: [1, 2] },
    });
    const r = await resolveNodeAssignees(node, source({ initiatorId: 1 }), DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'tasks', userIds: [2] });
  });

  it('keeps the initiator when the node sets allowInitiator', async () => {
    const node = approval('n', users(1, 2), { allowInitiator: true });
    const r = await resolveNodeAssignees(node, source({ initiatorId: 1 }), DEFAULT_DIRECTORY);
    expect(r.userIds).toEqual([1, 2]);
  });
});

describe('a leader who starts their own request (initiatorIsLeader)', () => {
  // Departments: 1 (leader 21) ← 2 (leader 22) ← 3 (no leader); 22 starts in department 2.
  const leader = source({ initiatorId: 22, initiatorDeptId: 2 });
  const step = (initiatorIsLeader?: 'next_level' | 'skip' | 'allow') =>
    approval('lead', {
      type: 'dept_leader',
      source: 'initiator',
      ...(initiatorIsLeader ? { initiatorIsLeader } : {}),
    });

  it('goes to the next level up by default, and says why', async () => {
    const r = await resolveNodeAssignees(step(), leader, DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'tasks', userIds: [21] });
    expect(r.resolution).toMatchObject({ deptId: 2, leaderDeptId: 1 });
    expect(r.resolution.note).toMatch(/initiator leads department 2/);
  });

  it('finds nobody when the initiator leads every department up to the top', async () => {
    const top = source({ initiatorId: 21, initiatorDeptId: 1 });
    const r = await resolveNodeAssignees(step(), top, DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'suspend', userIds: [] });
    expect(r.resolution.note).toMatch(/every one above it/);
  });

  it('passes the step with `skip`, and lets them approve with `allow`', async () => {
    const skipped = await resolveNodeAssignees(step('skip'), leader, DEFAULT_DIRECTORY);
    expect(skipped).toMatchObject({ outcome: 'auto_pass', strategy: null });
    expect(skipped.resolution.note).toMatch(/step passes/);
    const allowed = await resolveNodeAssignees(step('allow'), leader, DEFAULT_DIRECTORY);
    expect(allowed).toMatchObject({ outcome: 'tasks', userIds: [22] });
  });

  it('leaves someone else\u2019s request alone', async () => {
    const r = await resolveNodeAssignees(step(), source({ initiatorDeptId: 2 }), DEFAULT_DIRECTORY);
    expect(r).toMatchObject({ outcome: 'tasks', userIds: [22] });
    expect(r.resolution.note).toBeNull();
  });
});
