import type {
  ApprovalNode,
  AssigneeDirectory,
  AssigneeRule,
  DirectoryUser,
  EmptyAssigneeStrategy,
  InstanceState,
} from './types.js';

/**
 * Assignee resolution: who a node's rule names right now. Only active users of the tenant are
 * kept (the directory is tenant-scoped), each once, in the rule's order. The `resolution` says
 * how the list came about, for simulate and explain.
 */

/** The part of an instance that assignee rules read (simulate has no instance yet). */
export type AssigneeSource = Pick<
  InstanceState,
  'form' | 'initiatorId' | 'initiatorDeptId' | 'selectedAssignees'
>;

export interface AssigneeResolution {
  rule: AssigneeRule['type'];
  /** roles: the role ids asked for. */
  roleIds?: number[];
  /** dept_leader: where the start department came from, the field read (form_user too), the level. */
  source?: 'initiator' | 'form_field';
  field?: string;
  level?: number;
  /** dept_leader: the department the walk started at, and the one whose leader was taken. */
  deptId?: number | null;
  leaderDeptId?: number | null;
  /** Users the rule named, deduplicated, in order, before the active filter. */
  candidates: number[];
  /** Candidates left out, and why. */
  dropped: { userId: number; reason: 'inactive' | 'unknown' | 'initiator' }[];
  /** The assignees: active candidates. */
  userIds: number[];
  /** Why the list is empty when the rule itself found nobody (no leader, no department, …). */
  note: string | null;
}

export interface ResolvedAssignees {
  userIds: number[];
  resolution: AssigneeResolution;
}

const dedupe = (ids: number[]): number[] => [...new Set(ids)];

function filterActive(candidates: number[], found: DirectoryUser[]) {
  const byId = new Map(found.map((u) => [u.id, u]));
  const dropped: AssigneeResolution['dropped'] = [];
  const userIds: number[] = [];
  for (const id of candidates) {
    const user = byId.get(id);
    if (!user) dropped.push({ userId: id, reason: 'unknown' });
    else if (!user.active) dropped.push({ userId: id, reason: 'inactive' });
    else userIds.push(id);
  }
  return { dropped, userIds };
}

async function explicitUsers(
  rule: AssigneeRule['type'],
  ids: number[],
  directory: AssigneeDirectory,
  note: string | null,
): Promise<ResolvedAssignees> {
  const candidates = dedupe(ids);
  const found = candidates.length > 0 ? await directory.users(candidates) : [];
  const { dropped, userIds } = filterActive(candidates, found);
  return { userIds, resolution: { rule, candidates, dropped, userIds, note } };
}

async function deptLeader(
  rule: Extract<AssigneeRule, { type: 'dept_leader' }>,
  state: AssigneeSource,
  directory: AssigneeDirectory,
): Promise<ResolvedAssignees> {
  const level = rule.level ?? 1;
  const base = { rule: rule.type, source: rule.source, level } as const;
  const empty = (deptId: number | null, leaderDeptId: number | null, note: string) => ({
    userIds: [],
    resolution: {
      ...base,
      ...(rule.source === 'form_field' ? { field: rule.field } : {}),
      deptId,
      leaderDeptId,
      candidates: [],
      dropped: [],
      userIds: [],
      note,
    },
  });

  let start: number | null;
  if (rule.source === 'initiator') {
    start = state.initiatorDeptId;
    if (start === null) return empty(null, null, 'the initiator has no department');
  } else {
    const value = state.form[rule.field];
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return empty(null, null, `form field ${rule.field} holds no department id`);
    }
    start = value;
  }

  let dept = start;
  for (let step = 1; step < level; step++) {
    const parent = await directory.parentOf(dept);
    if (parent === undefined) return empty(start, null, `department ${dept} does not exist`);
    if (parent === null) return empty(start, null, `department ${start} has no level ${level}`);
    dept = parent;
  }
  let leader = await directory.leaderOf(dept);
  if (leader === undefined) return empty(start, dept, `department ${dept} does not exist`);
  if (leader === null) return empty(start, dept, `department ${dept} has no leader`);
  // The initiator leads that department: by default their own request goes one level up, until
  // a department whose leader is someone else (`skip` and `allow` are decided by the node).
  let note: string | null = null;
  if (leader === state.initiatorId && (rule.initiatorIsLeader ?? 'next_level') === 'next_level') {
    const led = dept;
    while (leader === state.initiatorId) {
      const parent = await directory.parentOf(dept);
      if (!parent)
        return empty(start, dept, `the initiator leads department ${dept} and every one above it`);
      dept = parent;
      leader = await directory.leaderOf(dept);
      if (leader === undefined) return empty(start, dept, `department ${dept} does not exist`);
      if (leader === null) return empty(start, dept, `department ${dept} has no leader`);
    }
    note = `the initiator leads department ${led}: the leader of department ${dept} approves`;
  }

  const found = await directory.users([leader]);
  const { dropped, userIds } = filterActive([leader], found);
  const resolution: AssigneeResolution = {
    ...base,
    ...(rule.source === 'form_field' ? { field: rule.field } : {}),
    deptId: start,
    leaderDeptId: dept,
    candidates: [leader],
    dropped,
    userIds,
    note,
  };
  return { userIds, resolution };
}

/** The users a rule names for `nodeId`: active only, deduplicated, first occurrence first. */
export async function resolveAssignees(
  rule: AssigneeRule,
  state: AssigneeSource,
  nodeId: string,
  directory: AssigneeDirectory,
): Promise<ResolvedAssignees> {
  switch (rule.type) {
    case 'users':
      return explicitUsers(rule.type, rule.userIds, directory, null);
    case 'initiator_selected': {
      const selected = state.selectedAssignees[nodeId] ?? [];
      const note = selected.length === 0 ? `the initiator selected nobody for ${nodeId}` : null;
      return explicitUsers(rule.type, selected, directory, note);
    }
    case 'roles': {
      const holders = rule.roleIds.length > 0 ? await directory.usersInRoles(rule.roleIds) : [];
      const seen = new Set<number>();
      const unique = holders.filter((u) => !seen.has(u.id) && seen.add(u.id));
      const candidates = unique.map((u) => u.id);
      const { dropped, userIds } = filterActive(candidates, unique);
      const note = candidates.length === 0 ? 'nobody holds these roles' : null;
      return {
        userIds,
        resolution: { rule: rule.type, roleIds: rule.roleIds, candidates, dropped, userIds, note },
      };
    }
    case 'dept_leader':
      return deptLeader(rule, state, directory);
    case 'form_user': {
      const value = state.form[rule.field];
      const id = typeof value === 'number' ? [value] : [];
      const note = id.length === 0 ? `form field ${rule.field} names nobody` : null;
      const resolved = await explicitUsers(rule.type, id, directory, note);
      return { ...resolved, resolution: { ...resolved.resolution, field: rule.field } };
    }
  }
}

export interface NodeResolution {
  /** `tasks`: open tasks for `userIds` (from the rule, or the fallback users when it was empty). */
  outcome: 'tasks' | 'auto_pass' | 'suspend';
  userIds: number[];
  resolution: AssigneeResolution;
  /** The empty-assignee strategy that fired, null when the rule found assignees. */
  strategy: EmptyAssigneeStrategy | null;
  /** fallback_users: how the fallback list resolved. */
  fallback: AssigneeResolution | null;
}

/**
 * No self-approval: unless the node sets `allowInitiator`, the initiator is dropped from what a
 * rule (or the fallback list) resolved, with the reason `initiator`.
 */
function withoutInitiator(
  node: ApprovalNode,
  state: AssigneeSource,
  resolved: ResolvedAssignees,
): ResolvedAssignees {
  if (node.allowInitiator === true || !resolved.userIds.includes(state.initiatorId))
    return resolved;
  if (leaderIsInitiator(node, state, resolved) && leaderRule(node) === 'allow') return resolved;
  const userIds = resolved.userIds.filter((id) => id !== state.initiatorId);
  const dropped = [
    ...resolved.resolution.dropped,
    { userId: state.initiatorId, reason: 'initiator' as const },
  ];
  return { userIds, resolution: { ...resolved.resolution, userIds, dropped } };
}

/** A `dept_leader` node's rule for a leader who is the initiator; null for other rules. */
function leaderRule(node: ApprovalNode) {
  return node.assignee.type === 'dept_leader'
    ? (node.assignee.initiatorIsLeader ?? 'next_level')
    : null;
}

const leaderIsInitiator = (
  node: ApprovalNode,
  state: AssigneeSource,
  resolved: ResolvedAssignees,
) =>
  node.assignee.type === 'dept_leader' && resolved.resolution.candidates[0] === state.initiatorId;

/** An approval node's assignees with its empty-assignee strategy (default `suspend`) applied. */
export async function resolveNodeAssignees(
  node: ApprovalNode,
  state: AssigneeSource,
  directory: AssigneeDirectory,
): Promise<NodeResolution> {
  const resolved = await resolveAssignees(node.assignee, state, node.id, directory);
  // `skip`: a step the initiator would lead passes as the system, whatever the strategy.
  if (leaderIsInitiator(node, state, resolved) && leaderRule(node) === 'skip') {
    const note = 'the initiator leads this department: the step passes';
    const resolution = { ...resolved.resolution, userIds: [], note };
    return { outcome: 'auto_pass', userIds: [], resolution, strategy: null, fallback: null };
  }
  const { userIds, resolution } = withoutInitiator(node, state, resolved);
  if (userIds.length > 0)
    return { outcome: 'tasks', userIds, resolution, strategy: null, fallback: null };
  const strategy = node.emptyAssignee?.strategy ?? 'suspend';
  if (strategy === 'auto_pass')
    return { outcome: 'auto_pass', userIds, resolution, strategy, fallback: null };
  if (strategy === 'fallback_users') {
    const ids = node.emptyAssignee?.userIds ?? [];
    const fb = withoutInitiator(
      node,
      state,
      await resolveAssignees({ type: 'users', userIds: ids }, state, node.id, directory),
    );
    const outcome = fb.userIds.length > 0 ? 'tasks' : 'suspend';
    return { outcome, userIds: fb.userIds, resolution, strategy, fallback: fb.resolution };
  }
  return { outcome: 'suspend', userIds, resolution, strategy, fallback: null };
}
