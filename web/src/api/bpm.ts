/**
 * BPM calls the pages share, and the record shapes they read. The generated client types the
 * paths; shapes the OpenAPI document leaves open (the diagram, node trees) are declared here.
 */
import { useQuery } from '@tanstack/react-query';
import { api, data } from './client';
import type { paths } from './schema';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

/** `GET /bpm/startable` answered a bare array before issue 10 and a page after: take either. */
export function asList<T>(value: T[] | Page<T> | null | undefined): T[] {
  if (!value) return [];
  return Array.isArray(value) ? value : value.list;
}

// The form schema and condition shapes are the engine's own (one definition for both sides).
export type {
  Condition,
  ConditionOp,
  FieldType,
  FormField,
  FormSchema,
  NodeTimeout,
  ResubmitTimeout,
} from '@engine/types';
import type { Condition, FormSchema, NodeTimeout, ResubmitTimeout } from '@engine/types';

export interface Definition {
  id: number;
  key: string;
  name: string;
  category: string | null;
  version: number;
  status: 'draft' | 'published' | 'archived' | 'suspended';
  form_mode: 'flow' | 'business';
  biz_type: string | null;
  form_schema: FormSchema;
  node_tree: FlowNode;
  starters?: { user_ids?: number[]; role_ids?: number[]; dept_ids?: number[] };
  created_at: string;
  updated_at?: string;
  published_at: string | null;
}

export type { ActionName, AssigneeRule } from '@engine/types';
import type { ActionName, AssigneeRule } from '@engine/types';

export type NodeState = 'done' | 'active' | 'pending' | 'skipped' | 'suspended';

interface NodeBase {
  id: string;
  name: string;
  hiddenFields?: string[];
  editableFields?: string[];
  child?: FlowNode | null;
  /** Diagram only: the node's state in this instance. */
  state?: NodeState;
}
export interface StartNode extends NodeBase {
  type: 'start';
  /** The definition's repeat-approval rule (the server's docs/api.md). */
  autoApproveRepeats?: 'off' | 'consecutive' | 'any';
  /** The initiator's deadline to resubmit after a return: remind once, or cancel. */
  resubmitTimeout?: ResubmitTimeout;
}
export interface ApprovalNode extends NodeBase {
  type: 'approval';
  assignee: AssigneeRule;
  mode: 'and' | 'or' | 'sequential' | 'vote';
  /** vote mode: the share of approvals that passes the node, 0 < r ≤ 1. */
  passRatio?: number;
  allowBackPrev?: boolean;
  allowInitiator?: boolean;
  onReject?: 'terminate' | 'initiator';
  timeout?: NodeTimeout;
  emptyAssignee?: { strategy: 'auto_pass' | 'fallback_users' | 'suspend'; userIds?: number[] };
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
  state?: NodeState;
}
export interface BranchNode extends NodeBase {
  type: 'branch';
  branches: Branch[];
}
export type FlowNode = StartNode | ApprovalNode | CcNode | BranchNode;

export interface Task {
  id: number;
  instance_id: number;
  node_id: string;
  node_name: string;
  kind?: 'approval' | 'resubmit';
  assignee_id: number;
  original_assignee_id: number | null;
  delegator_id: number | null;
  /** The person out of office this task was opened for (its holder stands in), or null. */
  on_behalf_of_id?: number | null;
  status: 'pending' | 'waiting' | 'done' | 'canceled';
  result: string | null;
  round: number;
  comment: string | null;
  created_at: string;
  due_at: string | null;
  finished_at: string | null;
  instance_title?: string;
  definition_key?: string;
  initiator_id?: number;
}

export interface InstanceDetail {
  id: number;
  title: string;
  definition_id: number;
  definition_key: string;
  definition_version: number;
  status: string;
  initiator_id: number;
  /** The initiator's username; null when the user no longer exists. */
  initiator_name: string | null;
  form: Record<string, unknown>;
  tasks: Task[];
  current_node_ids: string[];
  path: string[];
  actions: ActionName[];
  suspend_reason: { code: string; node_id: string; detail: string } | null;
  created_at: string;
  finished_at: string | null;
  /** The files of the file fields the caller sees, by field key, with signed links. */
  files?: Record<string, FileInfo[]>;
}

/** A file a form holds, as a detail answers it (the generated contract, not a copy of it). */
export type FileInfo =
  paths['/api/v1/bpm/instances/{id}']['get']['responses'][200]['content']['application/json']['data']['files'][string][number];

export interface Diagram {
  tree: FlowNode;
  path: string[];
  status: string;
  form: Record<string, unknown>;
}

export interface TimelineEntry {
  id: number;
  node_id: string | null;
  node_name: string | null;
  action: string;
  operator_id: number;
  operator_name: string;
  comment: string | null;
  round: number;
  /** What the entry is about beyond its comment (ids of people, counts; per action). */
  details?: Record<string, unknown> | null;
  created_at: string;
}

export interface SimulateResult {
  path: string[];
  branches: {
    node_id: string;
    branch_id?: string;
    condition: unknown;
    inputs: unknown;
    result: unknown;
  }[];
  nodes: {
    node_id: string;
    node_name?: string;
    type?: string;
    mode?: string;
    assignees: number[];
    resolution: unknown;
    strategy: unknown;
    fallback?: unknown;
    /** Assignees out of office: their task would open for `stand_in_id` (in `assignees`). */
    stand_ins?: StandInView[];
  }[];
  failures: unknown[];
}

/** Who is away and who takes their task, with each absence followed (until: ISO 8601). */
export interface StandInView {
  user_id: number;
  stand_in_id: number;
  chain: { user_id: number; stand_in_id: number; until: string }[];
}

export const bpmKeys = {
  todoCount: ['bpm', 'todo', 'count'] as const,
  ccUnread: ['bpm', 'cc', 'unread'] as const,
};

export function fetchTodoCount(): Promise<number> {
  return data(api.GET('/api/v1/bpm/tasks/todo', { params: { query: { page_size: 1 } } })).then(
    (page) => (page as Page<Task>).total,
  );
}

export function fetchCcUnread(): Promise<number> {
  return data(
    api.GET('/api/v1/bpm/cc/my', { params: { query: { unread: 'true', page_size: 1 } } }),
  ).then((page) => (page as Page<unknown>).total);
}

/** A detail page's id from the URL: a positive integer, or null (never NaN sent to the API). */
export function recordId(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d{0,15}$/.test(param)) return null;
  return Number(param);
}

/** One instance's detail (`GET /bpm/instances/:id`), for its page. */
export function useInstance(id: number) {
  return useQuery({
    queryKey: ['bpm', 'instance', id],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/instances/{id}', { params: { path: { id } } }),
      ) as Promise<InstanceDetail>,
  });
}

/** A task with its instance and the caller's actions (`GET /bpm/tasks/:id`). */
export type TaskDetail = Task & { instance: InstanceDetail; actions: ActionName[] };

/** One task's detail, for the task page. */
export function useTask(id: number) {
  return useQuery({
    queryKey: ['bpm', 'task', id],
    queryFn: () =>
      data(api.GET('/api/v1/bpm/tasks/{id}', { params: { path: { id } } })) as Promise<TaskDetail>,
  });
}

/** A definition by id; `enabled` false while the caller may not read it. */
export function useDefinition(id: number | undefined, enabled = true) {
  return useQuery({
    queryKey: ['bpm', 'definition', id],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/definitions/{id}', { params: { path: { id: id! } } }),
      ) as Promise<Definition>,
    enabled: enabled && id !== undefined,
  });
}

/** The definitions the caller may start (the start page, and form schemas for detail pages). */
export function useStartable() {
  return useQuery({
    queryKey: ['bpm', 'startable'],
    queryFn: async () =>
      asList(
        (await data(
          api.GET('/api/v1/bpm/startable', { params: { query: { page_size: 100 } } as never }),
        )) as Definition[] | Page<Definition>,
      ),
  });
}

/** An instance's route with each node's state (the diagram). */
export function useInstanceDiagram(id: number) {
  return useQuery({
    queryKey: ['bpm', 'diagram', id],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/instances/{id}/diagram', { params: { path: { id } } }),
      ) as Promise<Diagram>,
  });
}

/** An instance's history, oldest first (a bare list before issue 10, a page after). */
export function useInstanceTimeline(id: number) {
  return useQuery({
    queryKey: ['bpm', 'timeline', id],
    queryFn: async () => {
      const d = (await data(
        api.GET('/api/v1/bpm/instances/{id}/timeline', { params: { path: { id } } }),
      )) as TimelineEntry[] | { list: TimelineEntry[] };
      return Array.isArray(d) ? d : d.list;
    },
  });
}

/** Why the caller holds a task (`GET /bpm/tasks/:id/explain`). */
export function useTaskExplain(taskId: number) {
  return useQuery({
    queryKey: ['bpm', 'explain', taskId],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/tasks/{id}/explain', { params: { path: { id: taskId } } }),
      ) as Promise<Record<string, unknown>>,
  });
}
