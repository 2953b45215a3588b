import { z } from 'zod';

export const forgotBody = z.object({
  username_or_email: z.string().trim().min(1).max(254),
  tenant_code: z.string().trim().min(1).max(64).optional(),
});

export const resetBody = z.object({
  token: z.string().min(1).max(256),
  new_password: z.string().min(8).max(256),
});
