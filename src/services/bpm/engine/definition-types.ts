/**
 * A definition as the designer writes it (camelCase): the form schema and the node tree. Part
 * of the engine's contract; types.ts re-exports it.
 */

// ---------------------------------------------------------------- definitions

/**
 * `user` and `dept`: one id of the tenant's directory (a person, a department). `file`: the ids
 * of files uploaded to the files service (at most `maxCount`, of the `accept`ed types).
 */
export type FieldType =
  | 'input'
  | 'textarea'
  | 'number'
  | 'amount'
  | 'select'
  | 'radio'
  | 'date'
  | 'switch'
  | 'user'
  | 'dept'
  | 'file';

export interface FormField {
  key: string;
  label: string;
  type: FieldType;
  required?: boolean;
  /** select / radio: the allowed values (plain strings). */
  options?: string[];
  /** number: bounds; amount: bounds in yuan. */
  min?: number;
  max?: number;
  /** file: how many files the field holds at most (1 to 20, default 1). */
  maxCount?: number;
  /** file: the accepted content types (`application/pdf`, `image/*`); absent: any type. */
  accept?: string[];
}

export interface FormSchema {
  fields: FormField[];
}

/**
 * A validated form snapshot: declared keys only; `amount` values in integer cents; a `file`
 * field's value is its file ids.
 */
export type FormValue = string | number | boolean | null | number[];
export type FormData = Record<string, FormValue>;

export type ConditionOp =
  'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'not_in' | 'contains' | 'empty' | 'not_empty';

/** Conditions are data: a comparison, or `all` / `any` groups that nest. */
export type Condition =
  { field: string; op: ConditionOp; value?: unknown } | { all: Condition[] } | { any: Condition[] };

export type AssigneeRule =
  | { type: 'users'; userIds: number[] }
  | { type: 'roles'; roleIds: number[] }
  | ({ type: 'dept_leader'; source: 'initiator'; level?: number } & LeaderOptions)
  | ({ type: 'dept_leader'; source: 'form_field'; field: string; level?: number } & LeaderOptions)
  | { type: 'initiator_selected' }
  /** The person a `user` field of the form names. */
  | { type: 'form_user'; field: string };

/**
 * When the leader found is the initiator: `next_level` (default) asks the leader of the next
 * department up (and so on to the top), `skip` passes the step, `allow` lets them approve.
 */
export type InitiatorIsLeader = 'next_level' | 'skip' | 'allow';
export interface LeaderOptions {
  initiatorIsLeader?: InitiatorIsLeader;
}

/** `vote`: the node passes once approvals reach `passRatio` of its tasks (会签 by ratio). */
export type ApprovalMode = 'and' | 'or' | 'sequential' | 'vote';
export type TimeoutAction = 'remind' | 'escalate' | 'auto_approve' | 'auto_reject';

/**
 * A step's deadline. `remind`: a reminder after `hours`, then every `repeatEveryHours` until
 * `repeatCount` reminders in all (default 1). `escalate`: after `hours` the task passes to its
 * holder's department leader, then one level up every `repeatEveryHours` (default `hours`); at
 * the top of the tree `finalAction` applies (default `stay`). `auto_*`: the system acts once.
 */
export interface NodeTimeout {
  hours: number;
  action: TimeoutAction;
  repeatEveryHours?: number;
  repeatCount?: number;
  finalAction?: 'auto_approve' | 'auto_reject' | 'stay';
}

/** The initiator's deadline to resubmit after a return: remind them once, or cancel. */
export interface ResubmitTimeout {
  hours: number;
  action: 'remind' | 'cancel';
}
export type EmptyAssigneeStrategy = 'auto_pass' | 'fallback_users' | 'suspend';

interface NodeBase {
  id: string;
  name: string;
  hiddenFields?: string[];
  child?: FlowNode | null;
}

export interface StartNode extends NodeBase {
  type: 'start';
  /**
   * The definition's repeat-approval rule: a person who approved earlier on the path is approved
   * by the system on a later step (`consecutive`: the step just before; `any`: any earlier one).
   * Default `off`.
   */
  autoApproveRepeats?: 'off' | 'consecutive' | 'any';
  resubmitTimeout?: ResubmitTimeout;
}

export interface ApprovalNode extends NodeBase {
  type: 'approval';
  assignee: AssigneeRule;
  mode: ApprovalMode;
  /** `vote` nodes: the share of approvals that passes the node, 0 < r ≤ 1. */
  passRatio?: number;
  allowBackPrev?: boolean;
  /** Default `terminate`. */
  onReject?: 'terminate' | 'initiator';
  timeout?: NodeTimeout;
  /** Default `{strategy: 'suspend'}`. */
  emptyAssignee?: { strategy: EmptyAssigneeStrategy; userIds?: number[] };
  /** Form fields this node's actors may change when they approve; default none. */
  editableFields?: string[];
  /** The initiator may be an assignee of this node (self-approval); default false. */
  allowInitiator?: boolean;
}

export interface CcNode extends NodeBase {
  type: 'cc';
  assignee: AssigneeRule;
}

export interface Branch {
  id: string;
  name: string;
  condition?: Condition;
  default?: boolean;
  child: FlowNode | null;
}

export interface BranchNode extends NodeBase {
  type: 'branch';
  branches: Branch[];
}

export type FlowNode = StartNode | ApprovalNode | CcNode | BranchNode;
