import { z } from 'zod';
import { userId } from '../instances/instances.schema.js';

export const simulateBody = z.object({
  form: z.record(z.string(), z.unknown()),
  initiator_id: userId.optional(),
  /** As on start: the users chosen for `initiator_selected` nodes, by node id. */
  selected_assignees: z.record(z.string(), z.array(userId).max(100)).optional(),
});

export type SimulateInput = z.infer<typeof simulateBody>;

/** The start form's preview: always as the caller, so no `initiator_id`. */
export const previewBody = simulateBody.omit({ initiator_id: true }).strict();

export type PreviewInput = z.infer<typeof previewBody>;
