import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { sortQuery } from '../../../platform/http/sort.js';
import {
  ACTIONS,
  comment,
  instanceDetailView,
  taskView,
  userId,
} from '../instances/instances.schema.js';

export const TODO_SORT = ['created_at', 'title'] as const;
export const DONE_SORT = ['created_at', 'finished_at', 'title'] as const;

export const todoQuery = z.object({
  ...pageQuery,
  ...sortQuery(TODO_SORT, 'id, newest first'),
  definition_key: z.string().max(64).optional(),
});

export const doneQuery = z.object({ ...pageQuery, ...sortQuery(DONE_SORT, 'finished_at') });

export const approveBody = z
  .object({ comment: comment.nullish(), form: z.record(z.string(), z.unknown()).optional() })
  .optional();

export const rejectBody = z.object({ comment: comment.nullish() });

export const transferBody = z.object({ to_user_id: userId, comment: comment.nullish() });

export const returnBody = z.object({
  to: z.enum(['initiator', 'previous']),
  comment: comment.nullish(),
});

export const reduceSignBody = z.object({
  user_ids: z.array(userId).min(1).max(50),
  comment: comment.nullish(),
});

/**
 * `position`: `parallel` (default) adds approvers who join the node's rule; `before` (前加签)
 * makes them approve one after the other before the caller, whose task waits; `after`
 * (后加签) approves the caller's task now and makes them approve one after the other after it.
 */
export const addSignBody = reduceSignBody.extend({
  position: z.enum(['parallel', 'before', 'after']).optional(),
});

export const taskItemView = taskView.extend({
  instance_title: z.string(),
  definition_key: z.string(),
  initiator_id: z.number().int(),
});

export const handedOverView = taskItemView.extend({
  handover: z.enum(['transfer', 'delegate']).describe('how the caller passed the task on'),
  handed_to_id: z.number().int().describe('whom the caller passed it to'),
  handed_at: z.string().describe('when'),
});

export const taskDetailView = taskView.extend({
  instance: instanceDetailView,
  actions: z.array(z.enum(ACTIONS)),
});

export const batchBody = z.object({
  action: z.enum(['approve', 'reject']),
  task_ids: z.array(userId).min(1).max(50),
  comment: comment.nullish(),
});

export const batchView = z.object({
  results: z.array(
    z.object({
      task_id: z.number().int(),
      ok: z.boolean(),
      /** The task and its instance after the action (ok), or the refusal (not ok). */
      status: z.string().nullable(),
      result: z.string().nullable(),
      instance_status: z.string().nullable(),
      code: z.number().int().nullable(),
      message: z.string().nullable(),
    }),
  ),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export type BatchInput = z.infer<typeof batchBody>;

export const reassignAllBody = z.object({
  from_user_id: userId,
  to_user_id: userId,
  comment: comment.nullish(),
});

export const reassignAllView = z.object({
  reassigned: z.number().int().describe('open tasks moved to the new holder'),
  skipped: z
    .array(
      z.object({
        task_id: z.number().int(),
        code: z.number().int(),
        message: z.string(),
      }),
    )
    .describe(
      'open tasks left where they are, with the refusal (the new holder is already on that step, say)',
    ),
});

export type ReassignAllInput = z.infer<typeof reassignAllBody>;
