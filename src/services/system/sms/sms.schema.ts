import { z } from 'zod';

/** Either a provider template with its parameters, or a plain text (exactly one of them). */
export const sendSmsBody = z.object({
  phone: z.string().regex(/^\+?[0-9]{5,20}$/, 'digits, optionally after +, 5 to 20 of them'),
  template_code: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "the provider's template code")
    .optional(),
  params: z
    .record(z.string().max(64), z.union([z.string().max(500), z.number()]))
    .optional()
    .describe("the template's parameters"),
  text: z.string().min(1).max(500).optional(),
});
export type SendSmsInput = z.infer<typeof sendSmsBody>;

export const smsSentView = z.object({
  /** The provider's HTTP status (2xx). */
  provider_status: z.number().int(),
});
