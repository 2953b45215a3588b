import type { ColumnType, Generated, Kysely } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read as the parsed value, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

export type BpmTables = {
  bpm_definitions: {
    id: Generated<number>;
    tenant_id: number;
    key: string;
    name: string;
    category: string | null;
    version: number;
    status: 'draft' | 'published' | 'archived' | 'suspended';
    form_mode: 'flow' | 'business';
    biz_type: string | null;
    form_schema: Json<unknown>;
    node_tree: Json<unknown>;
    starters: Json<Starters>;
    created_by: number;
    created_at: Timestamp;
    updated_at: Timestamp;
    published_at: Date | null;
  };
  /** The files each request's form holds (migration 0028). */
  bpm_instance_files: {
    tenant_id: number;
    instance_id: number;
    file_id: number;
  };
  bpm_instances: {
    id: Generated<number>;
    tenant_id: number;
    definition_id: number;
    definition_key: string;
    definition_version: number;
    title: string;
    status: 'running' | 'suspended' | 'approved' | 'rejected' | 'canceled' | 'terminated';
    initiator_id: number;
    initiator_dept_id: number | null;
    initiator_role_ids: Json<number[]>;
    biz_type: string;
    biz_id: string;
    form: Json<Record<string, unknown>>;
    selected_assignees: Json<Record<string, number[]>>;
    path: Json<string[]>;
    current_node_id: string | null;
    round: number;
    suspend_reason: ColumnType<SuspendReasonRow | null, string | null, string | null>;
    created_at: Timestamp;
    updated_at: Timestamp;
    finished_at: Date | null;
  };
  bpm_tasks: {
    id: Generated<number>;
    tenant_id: number;
    instance_id: number;
    node_id: string;
    node_name: string;
    kind: 'approval' | 'resubmit';
    assignee_id: number;
    original_assignee_id: number | null;
    delegator_id: number | null;
    status: 'pending' | 'waiting' | 'done' | 'canceled';
    result: string | null;
    round: number;
    seq: number;
    comment: string | null;
    added_by_sign: boolean;
    created_at: Timestamp;
    due_at: Date | null;
    finished_at: Date | null;
    reminded_at: Date | null;
    urged_at: Date | null;
    on_behalf_of_id: number | null;
    timeout_count: Generated<number>;
  };
  bpm_out_of_office: {
    tenant_id: number;
    user_id: number;
    stand_in_id: number;
    starts_at: Timestamp;
    ends_at: Timestamp;
    definition_keys: ColumnType<string[] | null, string | null, string | null>;
    move_pending: boolean;
    comment: string | null;
    updated_by: number;
    updated_at: Timestamp;
  };
  bpm_cc: {
    id: Generated<number>;
    tenant_id: number;
    instance_id: number;
    node_id: string;
    user_id: number;
    round: number;
    read: boolean;
    read_at: Date | null;
    created_at: Timestamp;
  };
  bpm_logs: {
    id: Generated<number>;
    tenant_id: number;
    instance_id: number;
    node_id: string | null;
    node_name: string | null;
    action: string;
    operator_id: number;
    operator_name: string;
    comment: string | null;
    round: number;
    /** See migration 0012: `{to_user_id}`, `{user_ids}` or `{changes}`; null otherwise. */
    details: ColumnType<Record<string, unknown> | null, string | null, string | null>;
    created_at: Timestamp;
  };
  bpm_delegations: {
    id: Generated<number>;
    tenant_id: number;
    task_id: number;
    from_user_id: number;
    to_user_id: number;
    created_at: Timestamp;
    resolved_at: Date | null;
  };
  bpm_outbox: {
    id: Generated<number>;
    tenant_id: number;
    kind: 'callback' | 'notification' | 'inbox';
    event_id: string;
    target: string;
    payload: Json<Record<string, unknown>>;
    status: Generated<'pending' | 'delivered' | 'dead'>;
    attempts: Generated<number>;
    next_attempt_at: Timestamp;
    lease_owner: string | null;
    lease_version: Generated<number>;
    lease_expires_at: Date | null;
    last_error: string | null;
    created_at: Timestamp;
    delivered_at: Date | null;
  };
  bpm_idempotency: {
    tenant_id: number;
    user_id: number;
    key: string;
    request_hash: string;
    status_code: number;
    response: Json<unknown>;
    created_at: Timestamp;
  };
};

export interface SuspendReasonRow {
  code: 'empty_assignee' | 'condition_failed';
  node_id: string;
  detail: string;
}

/** Who may start a definition: empty lists everywhere means every active user of the tenant. */
export interface Starters {
  user_ids?: number[];
  role_ids?: number[];
  dept_ids?: number[];
}

export type BpmDb = Kysely<BpmTables>;
