import type { AuthUser } from './auth.ports.js';
import { z } from 'zod';

export const loginBody = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(128),
  tenant_code: z.string().min(1).max(64).optional(),
  captcha_id: z.string().max(64).optional(),
  captcha: z.string().max(16).optional(),
  /** Second factor (issue 11): the TOTP code or a recovery code of a user with TOTP on. */
  totp_code: z.string().max(16).optional(),
});

export const refreshBody = z.object({ refresh_token: z.string().min(1).max(256) });

export const logoutBody = z.object({ refresh_token: z.string().max(256).optional() }).optional();

export const changePasswordBody = z.object({
  old_password: z.string().min(1).max(128),
  new_password: z.string().min(1).max(128).describe('at least 10 characters, not easy to guess'),
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

/** `/me` and the login answer: a user as the client sees them. */
export function userViewOf(user: AuthUser): z.infer<typeof userView> {
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    tenant_id: user.tenant_id,
    dept_id: user.dept_id,
    roles: user.roles,
    permissions: user.permissions,
    is_platform_admin: user.is_platform_admin,
    must_change_password: user.must_change_password,
  };
}
