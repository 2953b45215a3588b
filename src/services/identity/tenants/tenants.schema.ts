import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { id, keywordQuery, password, status, timestamp, username } from '../identity.schema.js';

/** Typed at sign-in (`tenant_code`), so kept short and URL-safe. */
const code = z.string().regex(/^[a-z0-9][a-z0-9_-]{1,63}$/, '2 to 64 of a-z, 0-9, _ and -');
const name = z.string().trim().min(1).max(128);
const storageQuotaMb = z.number().int().min(0).max(2_147_483_647);

export const createTenantBody = z.object({
  code,
  name,
  storage_quota_mb: storageQuotaMb.optional().describe('0 (the default) means unlimited'),
  package_id: id.nullable().optional().describe('its package: menus and storage quota'),
  admin_username: username,
  admin_password: password,
});
export type CreateTenantInput = z.infer<typeof createTenantBody>;

/** Partial update. `code` is immutable: it may be sent back unchanged, never changed. */
export const updateTenantBody = z.object({
  code: z.string().optional(),
  name: name.optional(),
  status: status.optional(),
  storage_quota_mb: storageQuotaMb.optional(),
  package_id: id.nullable().optional(),
});
export type UpdateTenantInput = z.infer<typeof updateTenantBody>;

export const listTenantsQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the code or name, matched as text'),
});
export type ListTenantsQuery = z.infer<typeof listTenantsQuery>;
export type TenantFilter = Omit<ListTenantsQuery, 'page' | 'page_size'>;

export const tenantView = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status,
  storage_quota_mb: z.number().int(),
  package_id: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type TenantView = z.infer<typeof tenantView>;
