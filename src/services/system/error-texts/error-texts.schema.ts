import { z } from 'zod';
import { timestamp } from '../../../platform/http/params.js';

/** `:code`: five digits (anything else is a 400; a code the platform does not know, 404). */
export const codeParams = z.object({
  code: z
    .string()
    .regex(/^[1-9]\d{4}$/, 'a five-digit application code')
    .transform(Number),
});

export const updateErrorTextBody = z.object({
  message: z.string().trim().min(1).max(200).describe('the text the envelope carries for the code'),
});
export type UpdateErrorTextInput = z.infer<typeof updateErrorTextBody>;

export const errorTextView = z.object({
  code: z.number().int(),
  http_status: z.number().int(),
  default_message: z.string(),
  /** The text answered now: the override, else the default. */
  message: z.string(),
  overridden: z.boolean(),
  updated_at: timestamp.nullable(),
});
export type ErrorTextView = z.infer<typeof errorTextView>;
