import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import {
  id,
  idQuery,
  keywordQuery,
  password,
  status,
  timestamp,
  username,
} from '../identity.schema.js';

const nickname = z.string().max(64);
const email = z.email().max(254);
const roleIds = z.array(id).max(100);
const postIds = z.array(id).max(50).describe('posts (job positions) the user holds');

export const createUserBody = z.object({
  username,
  password,
  nickname: nickname.optional(),
  email: email.nullable().optional(),
  dept_id: id.nullable().optional(),
  role_ids: roleIds.optional(),
  post_ids: postIds.optional(),
  status: status.optional(),
});
export type CreateUserInput = z.infer<typeof createUserBody>;

/** Partial update: every field optional; `role_ids` replaces the whole set. */
export const updateUserBody = z.object({
  username: username.optional(),
  password: password.optional(),
  nickname: nickname.optional(),
  email: email.nullable().optional(),
  dept_id: id.nullable().optional(),
  role_ids: roleIds.optional(),
  post_ids: postIds.optional(),
  status: status.optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserBody>;

export const listUsersQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the username or nickname, matched as text'),
  status: status.optional(),
  dept_id: idQuery,
});
export type ListUsersQuery = z.infer<typeof listUsersQuery>;
export type UserFilter = Omit<ListUsersQuery, 'page' | 'page_size'>;

export const userView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  dept_id: z.number().int().nullable(),
  status,
  is_platform_admin: z.boolean(),
  must_change_password: z.boolean(),
  role_ids: z.array(z.number().int()),
  post_ids: z.array(z.number().int()),
  created_at: timestamp,
  updated_at: timestamp,
});
export type UserView = z.infer<typeof userView>;

/** A change's answer: a disabled user's open approval tasks too, to reassign them. */
export const updatedUserView = userView.extend({
  open_tasks: z
    .number()
    .int()
    .optional()
    .describe('present when the user is disabled: open approval tasks they still hold'),
});
