import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { sortQuery } from '../../../platform/http/sort.js';
import { idQuery, keywordQuery } from '../../../platform/http/params.js';

const INSTANCE_STATUS = [
  'running',
  'suspended',
  'approved',
  'rejected',
  'canceled',
  'terminated',
] as const;
export const ACTIONS = [
  'approve',
  'reject',
  'transfer',
  'return_initiator',
  'return_previous',
  'add_sign',
  'reduce_sign',
  'delegate',
  'resolve',
  'cancel',
  'resubmit',
  'terminate',
  'urge',
  'withdraw',
] as const;

export const comment = z.string().max(2000);
export const userId = z.number().int().min(1);

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

/** A bound of the admin list's time range, ISO 8601 with an offset. */
const listTime = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const MY_SORT = ['created_at', 'updated_at', 'title'] as const;

export const listMyQuery = z.object({
  ...pageQuery,
  ...sortQuery(MY_SORT, 'id, newest first'),
  status: z.enum(INSTANCE_STATUS).optional(),
});
export const listAllQuery = z.object({
  ...pageQuery,
  status: z.enum(INSTANCE_STATUS).optional(),
  definition_key: z.string().max(64).optional(),
  initiator_id: idQuery,
  keyword: keywordQuery.describe('part of the title, the business id or the definition key'),
  start_time: listTime.optional().describe('ISO 8601; started at or after'),
  end_time: listTime.optional().describe('ISO 8601; started before'),
});

export const commentBody = z.object({ comment: comment.nullish() }).optional();
export const resubmitBody = z.object({ form: z.record(z.string(), z.unknown()) });

/** Resume, with a platform admin's repairs of what stopped the instance (BPM.md). */
export const resumeBody = z
  .object({
    comment: comment.nullish(),
    form_patch: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('fields of the frozen form to set (validated as on start; null clears one)'),
    assignee_ids: z
      .array(userId)
      .min(1)
      .max(100)
      .optional()
      .describe("open the suspended step's tasks for these active users"),
    branch_id: z
      .string()
      .max(64)
      .optional()
      .describe('enter this branch of the branch node that could not decide'),
  })
  .optional();

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
  /** The person out of office this task was opened for (the assignee stands in), or null. */
  on_behalf_of_id: z.number().int().nullable(),
  status: z.enum(['pending', 'waiting', 'done', 'canceled']),
  result: z.string().nullable(),
  round: z.number().int(),
  comment: z.string().nullable(),
  created_at: z.string(),
  due_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

/** A file of a `file` field, with a fresh signed download link. */
export const fileLinkView = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  uploaded_by: z.number().int(),
  url: z.string().describe('signed download link, relative to the platform address'),
  expires_at: z.string(),
});

export const instanceDetailView = instanceItemView.extend({
  /** The initiator's username, read from the directory; null when the user no longer exists. */
  initiator_name: z.string().nullable(),
  form: z.record(z.string(), z.unknown()),
  files: z
    .record(z.string(), z.array(fileLinkView))
    .describe('the files of the file fields in `form` (those the caller sees), with fresh links'),
  tasks: z.array(taskView),
  current_node_ids: z.array(z.string()),
  path: z.array(z.string()),
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
  /** `{to_user_id}` (transfer, delegate), `{user_ids}` (add-sign), `{changes}` (edit). */
  details: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});

export type StartInput = z.infer<typeof startBody>;
export type InstanceItemView = z.infer<typeof instanceItemView>;
export type InstanceDetailView = z.infer<typeof instanceDetailView>;
export type TaskView = z.infer<typeof taskView>;
