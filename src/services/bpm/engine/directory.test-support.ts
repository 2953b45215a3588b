import { applyAction } from './actions.js';
import { startInstance } from './advance.js';
import type {
  Absence,
  AbsenceBook,
  Action,
  Actor,
  ApprovalNode,
  AssigneeDirectory,
  AssigneeRule,
  FileCatalog,
  FileFacts,
  BranchNode,
  CcNode,
  DirectoryUser,
  Effect,
  EngineContext,
  FlowNode,
  FormData,
  InstanceState,
  LogEntry,
  TaskState,
} from './types.js';

/**
 * Test support for the engine's unit tests: an in-memory `AssigneeDirectory`, a context with a
 * fixed clock and counting temporary task ids, and small builders for trees and effects.
 */

export interface TestUser {
  id: number;
  deptId?: number | null;
  /** Default true. */
  active?: boolean;
  roleIds?: number[];
}

export interface TestDept {
  id: number;
  /** Default null (a top-level department). */
  parentId?: number | null;
  /** Default null (no leader). */
  leaderId?: number | null;
}

export function testDirectory(users: TestUser[], depts: TestDept[] = []): AssigneeDirectory {
  const asDirectoryUser = (u: TestUser): DirectoryUser => ({
    id: u.id,
    deptId: u.deptId ?? null,
    active: u.active ?? true,
  });
  const dept = (id: number) => depts.find((d) => d.id === id);
  return {
    users: async (ids) => users.filter((u) => ids.includes(u.id)).map(asDirectoryUser),
    usersInRoles: async (roleIds) =>
      users.filter((u) => (u.roleIds ?? []).some((r) => roleIds.includes(r))).map(asDirectoryUser),
    departments: async (ids) => depts.filter((d) => ids.includes(d.id)).map((d) => d.id),
    parentOf: async (id) => {
      const d = dept(id);
      return d ? (d.parentId ?? null) : undefined;
    },
    leaderOf: async (id) => {
      const d = dept(id);
      return d ? (d.leaderId ?? null) : undefined;
    },
  };
}

/**
 * Users 1..30 are active, in department 2; 5 and 6 hold role 7, 6 and 8 hold role 8; 99 is
 * inactive and holds role 7. Departments: 1 (leader 21) ← 2 (leader 22) ← 3 (no leader).
 */
export const DEFAULT_DIRECTORY = testDirectory(
  [
    ...Array.from({ length: 30 }, (_, i) => {
      const id = i + 1;
      const roleIds = [...(id === 5 || id === 6 ? [7] : []), ...(id === 6 || id === 8 ? [8] : [])];
      return { id, deptId: 2, roleIds };
    }),
    { id: 99, active: false, roleIds: [7] },
  ],
  [
    { id: 1, parentId: null, leaderId: 21 },
    { id: 2, parentId: 1, leaderId: 22 },
    { id: 3, parentId: 2, leaderId: null },
  ],
);

export const NOW = Date.UTC(2024, 0, 1, 9, 0, 0);

/** Who is away: `{userId, standInId, until}` entries (the engine asks as of `ctx.now`). */
export function testAbsences(absences: Absence[] = []): AbsenceBook {
  return { absenceOf: async (id) => absences.find((a) => a.userId === id) ?? null };
}

/** A file catalogue holding exactly `files`. */
export function testFiles(files: FileFacts[] = []): FileCatalog {
  return { files: async (ids) => files.filter((f) => ids.includes(f.id)) };
}

export function testContext(
  tree: FlowNode,
  directory: AssigneeDirectory = DEFAULT_DIRECTORY,
  now = NOW,
  absences: AbsenceBook = testAbsences(),
  files: FileCatalog = testFiles(),
): EngineContext {
  let next = 0;
  return { tree, schema: { fields: [] }, directory, files, absences, now, newTaskId: () => --next };
}

// ---------------------------------------------------------------- tree builders

/** Links the nodes by `child`, in order; returns the first. */
export function chain<T extends FlowNode>(first: T, ...rest: FlowNode[]): T {
  let at: FlowNode = first;
  for (const n of rest) {
    at.child = n;
    at = n;
  }
  return first;
}

export const start = (): FlowNode => ({ id: 'start', type: 'start', name: 'Submit' });

export const users = (...userIds: number[]): AssigneeRule => ({ type: 'users', userIds });

export function approval(
  id: string,
  assignee: AssigneeRule,
  extra: Partial<Omit<ApprovalNode, 'id' | 'type'>> = {},
): ApprovalNode {
  return { id, type: 'approval', name: `Node ${id}`, assignee, mode: 'and', ...extra };
}

export const cc = (id: string, assignee: AssigneeRule): CcNode => ({
  id,
  type: 'cc',
  name: `Copy ${id}`,
  assignee,
});

export function branch(id: string, branches: BranchNode['branches']): BranchNode {
  return { id, type: 'branch', name: `Branch ${id}`, branches };
}

// ---------------------------------------------------------------- actors and effect readers

export const person = (userId: number): Actor => ({ userId, platformAdmin: false });
export const admin = (userId = 1000): Actor => ({ userId, platformAdmin: true });
export const SYSTEM: Actor = { userId: 0, platformAdmin: false, system: true };

export const logs = (effects: Effect[]): LogEntry[] =>
  effects.flatMap((e) => (e.type === 'log' ? [e.entry] : []));

export const logActions = (effects: Effect[]): string[] => logs(effects).map((l) => l.action);

export const tasksOf = (tasks: TaskState[], nodeId: string, round?: number): TaskState[] =>
  tasks.filter((t) => t.nodeId === nodeId && (round === undefined || t.round === round));

/** The one pending task of `userId` (throws when there is not exactly one). */
export function pendingOf(tasks: TaskState[], userId: number): TaskState {
  const found = tasks.filter((t) => t.assigneeId === userId && t.status === 'pending');
  if (found.length !== 1) throw new Error(`user ${userId} has ${found.length} pending tasks`);
  return found[0] as TaskState;
}

/** Freezes deeply, so a test fails if the engine mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The initiator of the action tests' instances. */
export const INITIATOR = 30;

/** An instance of `tree` started by INITIATOR (department 2) on a test context. */
export async function started(tree: FlowNode, form: FormData = {}, directory?: AssigneeDirectory) {
  const ctx = testContext(tree, directory);
  const { state } = await startInstance(ctx, {
    form,
    initiatorId: INITIATOR,
    initiatorDeptId: 2,
    initiatorRoleIds: [],
    selectedAssignees: {},
  });
  return { ctx, state };
}

/** Applies `action` as the person `userId`. */
export const actAs = (ctx: EngineContext) => (s: InstanceState, action: Action, userId: number) =>
  applyAction(ctx, s, action, person(userId));

/** `userId` approves their pending task; the new state. */
export const approveBy = async (ctx: EngineContext, s: InstanceState, userId: number) =>
  (await actAs(ctx)(s, { type: 'approve', taskId: pendingOf(s.tasks, userId).id }, userId)).state;

/** Node options that allow return-to-previous. */
export const back = { allowBackPrev: true } as const;

/** start → a (user 1) → b (users 2 and 4, return allowed) → c (user 3, return allowed). */
export const threeApprovalLine = () =>
  chain(
    start(),
    approval('a', users(1)),
    approval('b', users(2, 4), back),
    approval('c', users(3), back),
  );
