import { z } from 'zod';

export const loginBody = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(128),
  tenant_code: z.string().min(1).max(64).optional(),
  captcha_id: z.string().max(64).optional(),
  captcha: z.string().max(16).optional(),
});

export const refreshBody = z.object({ refresh_token: z.string().min(1).max(256) });

export const logoutBody = z.object({ refresh_token: z.string().max(256).optional() }).optional();

export const changePasswordBody = z.object({
  old_password: z.string().min(1).max(128),
  new_password: z.string().min(8).max(128),
});

export const userView = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  tenant_id: z.number().int(),
  dept_id: z.number().int().nullable(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
  is_platform_admin: z.boolean(),
  must_change_password: z.boolean(),
});

export const tokenPair = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_expires_in: z.number().int(),
  user: userView,
});

export const captchaView = z.object({ captcha_id: z.string(), image: z.string() });
