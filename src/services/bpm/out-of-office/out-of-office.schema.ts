import { z } from 'zod';
import { comment, userId } from '../instances/instances.schema.js';

const definitionKey = z.string().regex(/^[a-z][a-z0-9_-]{1,63}$/, 'a definition key');

export const absenceBody = z.object({
  stand_in_id: userId.describe('who takes the tasks meanwhile: an active user, not oneself'),
  from: z.iso.datetime({ offset: true }).describe('start of the period (ISO 8601)'),
  to: z.iso
    .datetime({ offset: true })
    .describe('end of the period, after `from` and in the future'),
  definition_keys: z
    .array(definitionKey)
    .min(1)
    .max(50)
    .nullable()
    .optional()
    .describe('only these definitions; absent or null: every definition'),
  move_pending: z
    .boolean()
    .optional()
    .describe('also move the open tasks to the stand-in once the period has begun'),
  comment: comment.max(500).nullable().optional(),
});

export const absenceView = z.object({
  user_id: z.number().int(),
  stand_in_id: z.number().int(),
  from: z.string(),
  to: z.string(),
  definition_keys: z.array(z.string()).nullable(),
  move_pending: z.boolean(),
  comment: z.string().nullable(),
  /** Whether the period holds now. */
  active: z.boolean(),
  updated_by: z.number().int(),
  updated_at: z.string(),
});

export const setAbsenceView = absenceView.extend({
  moved: z.number().int().describe('open tasks moved to the stand-in now'),
});

export type AbsenceInput = z.infer<typeof absenceBody>;
