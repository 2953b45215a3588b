/**
 * The approval engine's data: definitions (node tree, form schema) as the designer writes them
 * (camelCase), and the instance state the pure engine reads and returns. No I/O anywhere in
 * engine/: identity data comes through the `AssigneeDirectory` interface.
 */

export * from './definition-types.js';
import type { FormData, FlowNode, FormSchema } from './definition-types.js';

// ---------------------------------------------------------------- identity, as the engine sees it

export interface DirectoryUser {
  id: number;
  deptId: number | null;
  active: boolean;
}

/**
 * Identity lookups the engine needs, scoped to the instance's tenant by the implementation.
 * Async so persistence can back it with SQL; tests back it with plain arrays.
 */
export interface AssigneeDirectory {
  /** The users among `ids` that exist in the tenant (active or not). */
  users(ids: number[]): Promise<DirectoryUser[]>;
  /** The departments among `ids` that exist in the tenant. */
  departments(ids: number[]): Promise<number[]>;
  /** Users holding any of the roles, in the tenant. */
  usersInRoles(roleIds: number[]): Promise<DirectoryUser[]>;
  /** The department's parent id, or null at the top; undefined when the department does not exist. */
  parentOf(deptId: number): Promise<number | null | undefined>;
  /** The department's leader, or null when it has none; undefined when it does not exist. */
  leaderOf(deptId: number): Promise<number | null | undefined>;
}

/** A stored file as the engine needs to know it: what it is and who uploaded it. */
export interface FileFacts {
  id: number;
  contentType: string;
  uploadedBy: number;
}

/** The tenant's uploaded files (the files service, through a port). */
export interface FileCatalog {
  /** The files among `ids` that exist in the tenant. */
  files(ids: number[]): Promise<FileFacts[]>;
}

/** One user's out-of-office period as it holds at `ctx.now` for the instance's definition. */
export interface Absence {
  userId: number;
  standInId: number;
  /** End of the period, ms since the epoch. */
  until: number;
}

/** Who is away right now (for this instance's definition); persistence backs it with SQL. */
export interface AbsenceBook {
  absenceOf(userId: number): Promise<Absence | null>;
}

// ---------------------------------------------------------------- instance state

export type InstanceStatus =
  'running' | 'suspended' | 'approved' | 'rejected' | 'canceled' | 'terminated';
export const TERMINAL_STATUSES: readonly InstanceStatus[] = [
  'approved',
  'rejected',
  'canceled',
  'terminated',
];
/** Whether an instance in `status` has ended (the one definition of "terminal"). */
export const isTerminal = (status: InstanceStatus): boolean => TERMINAL_STATUSES.includes(status);

export type TaskStatus = 'pending' | 'waiting' | 'done' | 'canceled';
export type TaskResult =
  'approved' | 'rejected' | 'returned' | 'auto_approved' | 'auto_rejected' | 'resolved';
/** `approval` tasks belong to an approval node; a `resubmit` task asks the initiator to edit and resubmit. */
export type TaskKind = 'approval' | 'resubmit';

export interface TaskState {
  /** Database id; new tasks opened by the engine carry a negative temporary id until stored. */
  id: number;
  nodeId: string;
  kind: TaskKind;
  assigneeId: number;
  originalAssigneeId: number | null;
  delegatorId: number | null;
  status: TaskStatus;
  result: TaskResult | null;
  round: number;
  /** Order within a sequential node (0-based); 0 for the other modes. */
  seq: number;
  comment: string | null;
  /** Milliseconds since the epoch. */
  createdAt: number;
  dueAt: number | null;
  finishedAt: number | null;
  /** Added by add-sign rather than resolved from the rule. */
  addedBySign: boolean;
  /** When the initiator last urged this task's holder (ms), or null. */
  urgedAt: number | null;
  /** The person out of office this task was opened for (the holder stands in), or null. */
  onBehalfOfId: number | null;
  /** How many times the timeout fired since the deadline was last armed (reminders, levels). */
  timeoutCount: number;
}

export interface SuspendReason {
  code: 'empty_assignee' | 'condition_failed';
  node_id: string;
  detail: string;
}

export interface InstanceState {
  status: InstanceStatus;
  round: number;
  form: FormData;
  initiatorId: number;
  initiatorDeptId: number | null;
  initiatorRoleIds: number[];
  /** `selected_assignees` of the start request, by node id (initiator_selected nodes). */
  selectedAssignees: Record<string, number[]>;
  /** The node ids entered, in order: the path actually taken. */
  path: string[];
  /** The approval node whose tasks are open, or null (not started, suspended elsewhere, ended). */
  currentNodeId: string | null;
  suspendReason: SuspendReason | null;
  /** Every task of the instance, all rounds. */
  tasks: TaskState[];
}

// ---------------------------------------------------------------- effects

export type LogAction =
  | 'start'
  | 'approve'
  | 'reject'
  | 'transfer'
  | 'return_initiator'
  | 'return_previous'
  | 'add_sign'
  | 'delegate'
  | 'resolve'
  | 'cancel'
  | 'resubmit'
  | 'terminate'
  | 'resume'
  | 'auto_pass'
  | 'auto_approve'
  | 'auto_reject'
  | 'remind'
  | 'cc'
  | 'branch'
  | 'suspend'
  | 'finish'
  | 'edit'
  | 'urge'
  | 'withdraw'
  | 'reduce_sign'
  | 'reassign'
  | 'stand_in'
  | 'escalate';

export interface LogEntry {
  nodeId: string | null;
  nodeName: string | null;
  action: LogAction;
  /** 0 is the system. */
  operatorId: number;
  comment: string | null;
  round: number;
  /**
   * What the entry is about beyond its comment: `{to_user_id}` (transfer, delegate),
   * `{user_ids, position}` (add-sign), `{user_ids}` (reduce-sign), `{changes: [{field, before, after}]}` (an approver's form edit),
   * `{from_user_id, to_user_id}` (reassign), `{user_id, stand_in_id, until}` (stand_in),
   * `{from_user_id, to_user_id, level}` (escalate), `{count}` (remind).
   */
  details?: Record<string, unknown> | null;
}

/** One field an approver changed. */
export interface FieldChange {
  field: string;
  before: FormData[string] | null;
  after: FormData[string] | null;
}

export type NotificationKind = 'todo' | 'cc' | 'timeout' | 'terminal' | 'urge';

/** What persistence must write besides the new state (which it diffs for tasks). */
export type Effect =
  | { type: 'log'; entry: LogEntry }
  | { type: 'cc'; nodeId: string; userIds: number[]; round: number }
  | { type: 'notify'; kind: NotificationKind; userIds: number[]; nodeId: string | null }
  | { type: 'delegation'; taskId: number; fromUserId: number; toUserId: number }
  /** The delegatee handed the task back: the open delegation record is closed. */
  | { type: 'delegation_resolved'; taskId: number }
  /** The instance reached a terminal state: outbox callback (business instances) and notice. */
  | { type: 'terminal'; status: InstanceStatus };

export interface EngineResult {
  state: InstanceState;
  effects: Effect[];
}

export type ActionName =
  | 'approve'
  | 'reject'
  | 'transfer'
  | 'return_initiator'
  | 'return_previous'
  | 'add_sign'
  | 'reduce_sign'
  | 'delegate'
  | 'resolve'
  | 'cancel'
  | 'resubmit'
  | 'terminate'
  | 'urge'
  | 'withdraw';

export type Action =
  /** `form`: the fields the approver changes, as sent (the engine checks and validates them). */
  | { type: 'approve'; taskId: number; comment?: string | null; form?: Record<string, unknown> }
  | { type: 'reject'; taskId: number; comment: string }
  | { type: 'transfer'; taskId: number; toUserId: number; comment?: string | null }
  | { type: 'return'; taskId: number; to: 'initiator' | 'previous'; comment: string }
  /** `position`: `parallel` (default) joins the node's rule; `before`/`after` open a sign chain. */
  | {
      type: 'add_sign';
      taskId: number;
      userIds: number[];
      comment?: string | null;
      position?: AddSignPosition;
    }
  /** 减签: cancel the pending tasks add-sign gave these users on the caller's node and round. */
  | { type: 'reduce_sign'; taskId: number; userIds: number[]; comment?: string | null }
  | { type: 'delegate'; taskId: number; toUserId: number; comment?: string | null }
  | { type: 'resolve'; taskId: number; comment?: string | null }
  | { type: 'cancel'; comment?: string | null }
  /** `form` is already validated against the schema by the caller. */
  | { type: 'resubmit'; form: FormData }
  | { type: 'terminate'; comment?: string | null }
  /**
   * Resume, with the repairs a platform admin may make (BPM.md): `formPatch` (fields of the
   * frozen schema, validated and merged), `assigneeIds` (open the suspended step's tasks for
   * these people), `branchId` (enter this branch of the branch node that could not decide).
   */
  | {
      type: 'resume';
      comment?: string | null;
      formPatch?: Record<string, unknown>;
      assigneeIds?: number[];
      branchId?: string;
    }
  /** The initiator reminds the holders of the pending tasks (once an hour per task). */
  | { type: 'urge'; comment?: string | null }
  /** The actor of the last approval takes it back while the next node is untouched. */
  | {
      type: 'withdraw';
      taskId: number;
      comment?: string | null;
      /** The form edits the withdrawn approval made (its `edit` entry), to revert. */
      edits?: FieldChange[];
    }
  /** A platform admin moves an open task to another active user. */
  | {
      type: 'reassign';
      taskId: number;
      /** The holder the caller saw: a task that changed hands since is refused (40900). */
      fromUserId: number;
      toUserId: number;
      comment?: string | null;
    }
  /**
   * Out of office with "move my open tasks": the task of someone away passes to their stand-in
   * (as new tasks would), on their behalf. By the person away, a platform admin, or the system.
   */
  | { type: 'hand_to_stand_in'; taskId: number }
  /** The system only: a task's deadline passed (remind, escalate, act, or cancel a resubmit). */
  | { type: 'timeout'; taskId: number };

export type AddSignPosition = 'parallel' | 'before' | 'after';

/** Who acts: a person, or the system (id 0, for timeouts) with `system: true`. */
export interface Actor {
  userId: number;
  platformAdmin: boolean;
  system?: boolean;
}

/** The operator id of the system in log entries (timeouts, automatic steps). */
export const SYSTEM_OPERATOR = 0;
/** The name log entries of the system carry. */
export const SYSTEM_NAME = 'system';
/** The system as an actor: timeouts act through the same action code as a person. */
export const SYSTEM_ACTOR: Actor = { userId: SYSTEM_OPERATOR, platformAdmin: false, system: true };

/** Everything an engine call needs besides the state. */
export interface EngineContext {
  tree: FlowNode;
  schema: FormSchema;
  directory: AssigneeDirectory;
  /** The tenant's uploaded files, for `file` fields. */
  files: FileCatalog;
  /** Who is out of office now, for this instance's definition. */
  absences: AbsenceBook;
  /** Milliseconds since the epoch; injected so timeouts are testable. */
  now: number;
  /** Next temporary (negative) task id; the engine calls it for every task it opens. */
  newTaskId: () => number;
}
