import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { idQuery } from '../../../platform/http/params.js';

const INSTANCE_STATUS = [
  'running',
  'suspended',
  'approved',
  'rejected',
  'canceled',
  'terminated',
] as const;
const ACTIONS = [
  'approve',
  'reject',
  'transfer',
  'return_initiator',
  'return_previous',
  'add_sign',
  'delegate',
  'resolve',
  'cancel',
  'resubmit',
  'terminate',
] as const;

const comment = z.string().max(2000);
const userId = z.number().int().min(1);

export const startBody = z
  .object({
    definition_key: z.string().max(64).optional(),
    definition_id: z.number().int().min(1).optional(),
    form: z.record(z.string(), z.unknown()),
    title: z.string().trim().min(1).max(200).optional(),
    selected_assignees: z.record(z.string(), z.array(userId).max(100)).optional(),
  })
  .refine((b) => b.definition_key !== undefined || b.definition_id !== undefined, {
    message: 'definition_key or definition_id is required',
    path: ['definition_key'],
  });

export const listMyQuery = z.object({ ...pageQuery, status: z.enum(INSTANCE_STATUS).optional() });
export const listAllQuery = z.object({
  ...pageQuery,
  status: z.enum(INSTANCE_STATUS).optional(),
  definition_key: z.string().max(64).optional(),
  initiator_id: idQuery,
});
export const todoQuery = z.object({ ...pageQuery, definition_key: z.string().max(64).optional() });
export const doneQuery = z.object({ ...pageQuery });
export const ccQuery = z.object({ ...pageQuery, unread: z.enum(['true', 'false']).optional() });

export const commentBody = z.object({ comment: comment.nullish() }).optional();
export const approveBody = z
  .object({ comment: comment.nullish(), form: z.record(z.string(), z.unknown()).optional() })
  .optional();
export const rejectBody = z.object({ comment: comment.nullish() });
export const transferBody = z.object({ to_user_id: userId, comment: comment.nullish() });
export const returnBody = z.object({
  to: z.enum(['initiator', 'previous']),
  comment: comment.nullish(),
});
export const addSignBody = z.object({
  user_ids: z.array(userId).min(1).max(50),
  comment: comment.nullish(),
});
export const resubmitBody = z.object({ form: z.record(z.string(), z.unknown()) });
export const simulateBody = z.object({
  form: z.record(z.string(), z.unknown()),
  initiator_id: userId.optional(),
});

export const suspendReasonView = z
  .object({
    code: z.enum(['empty_assignee', 'condition_failed']),
    node_id: z.string(),
    detail: z.string(),
  })
  .nullable();

export const instanceItemView = z.object({
  id: z.number().int(),
  title: z.string(),
  definition_id: z.number().int(),
  definition_key: z.string(),
  definition_version: z.number().int(),
  status: z.enum(INSTANCE_STATUS),
  initiator_id: z.number().int(),
  biz_type: z.string(),
  biz_id: z.string(),
  round: z.number().int(),
  suspend_reason: suspendReasonView,
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

export const taskView = z.object({
  id: z.number().int(),
  instance_id: z.number().int(),
  node_id: z.string(),
  node_name: z.string(),
  kind: z.enum(['approval', 'resubmit']),
  assignee_id: z.number().int(),
  original_assignee_id: z.number().int().nullable(),
  delegator_id: z.number().int().nullable(),
  status: z.enum(['pending', 'waiting', 'done', 'canceled']),
  result: z.string().nullable(),
  round: z.number().int(),
  comment: z.string().nullable(),
  created_at: z.string(),
  due_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const taskItemView = taskView.extend({
  instance_title: z.string(),
  definition_key: z.string(),
  initiator_id: z.number().int(),
});

export const instanceDetailView = instanceItemView.extend({
  form: z.record(z.string(), z.unknown()),
  tasks: z.array(taskView),
  current_node_ids: z.array(z.string()),
  path: z.array(z.string()),
  actions: z.array(z.enum(ACTIONS)),
});

export const taskDetailView = taskView.extend({
  instance: instanceDetailView,
  actions: z.array(z.enum(ACTIONS)),
});

export const timelineView = z.object({
  id: z.number().int(),
  instance_id: z.number().int(),
  node_id: z.string().nullable(),
  node_name: z.string().nullable(),
  action: z.string(),
  operator_id: z.number().int(),
  operator_name: z.string(),
  comment: z.string().nullable(),
  round: z.number().int(),
  created_at: z.string(),
});

export const ccView = z.object({
  id: z.number().int(),
  instance_id: z.number().int(),
  node_id: z.string(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  instance_title: z.string(),
});

export type StartInput = z.infer<typeof startBody>;
export type InstanceItemView = z.infer<typeof instanceItemView>;
export type InstanceDetailView = z.infer<typeof instanceDetailView>;
export type TaskView = z.infer<typeof taskView>;
