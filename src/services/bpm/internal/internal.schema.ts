import { z } from 'zod';

const positive = z.number().int().min(1);
export const internalStartBody = z.object({
  tenant_id: positive,
  initiator_id: positive,
  definition_key: z.string().min(1).max(64),
  biz_id: z.string().min(1).max(128),
  form: z.record(z.string(), z.unknown()).optional(),
  title: z.string().trim().min(1).max(200).optional(),
});
export const byBizQuery = z.object({
  biz_type: z.string().min(1).max(64),
  biz_id: z.string().min(1).max(128),
  tenant_id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .transform(Number)
    .optional(),
});
export type InternalStartInput = z.infer<typeof internalStartBody>;
