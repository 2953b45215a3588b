import { z } from 'zod';
import { grantableIn, type PermissionSpec } from '../../../platform/auth/permissions.js';
import { pageQuery } from '../../../platform/http/envelope.js';
import { keywordQuery, timestamp } from '../identity.schema.js';

export const MAX_PERMISSIONS = 200;

const code = z.string().regex(/^[a-z][a-z0-9_]{1,63}$/, '2 to 64 of a-z, 0-9, _, from a letter');
const name = z.string().trim().min(1).max(64);
/**
 * The role bodies over the platform's catalogue: each code is `*`, a code of the catalogue
 * (GET /api/v1/permissions), or `prefix:*` covering at least one, so a role cannot grant a code
 * no route requires.
 */
export function roleBodies(catalogue: readonly PermissionSpec[]) {
  const permissionCode = z
    .string()
    .max(100)
    .refine(grantableIn(catalogue), 'not a permission code of GET /api/v1/permissions');
  const permissions = z.array(permissionCode).max(MAX_PERMISSIONS);
  return {
    create: z.object({ code, name, permissions }),
    /** Partial update; `permissions` replaces the whole set. */
    update: z.object({
      code: code.optional(),
      name: name.optional(),
      permissions: permissions.optional(),
    }),
  };
}
type RoleBodies = ReturnType<typeof roleBodies>;
export type CreateRoleInput = z.infer<RoleBodies['create']>;
export type UpdateRoleInput = z.infer<RoleBodies['update']>;

export const listRolesQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the code or name, matched as text'),
});
export type ListRolesQuery = z.infer<typeof listRolesQuery>;
export type RoleFilter = Omit<ListRolesQuery, 'page' | 'page_size'>;

export const roleView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
});
export type RoleView = z.infer<typeof roleView>;
