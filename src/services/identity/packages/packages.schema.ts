import { z } from 'zod';
import { id, status, timestamp } from '../identity.schema.js';

const name = z.string().trim().min(1).max(64);

export const createPackageBody = z.object({
  name,
  menu_ids: z.array(id).max(1000).describe('the menu entries tenants on this package may use'),
  storage_quota_mb: z
    .number()
    .int()
    .min(0)
    .max(2_147_483_647)
    .optional()
    .describe('storage per tenant; 0 (the default) means unlimited'),
  status: status.optional(),
});
export type CreatePackageInput = z.infer<typeof createPackageBody>;
export const updatePackageBody = createPackageBody.partial();
export type UpdatePackageInput = z.infer<typeof updatePackageBody>;

export const packageView = z.object({
  id: z.number().int(),
  name: z.string(),
  menu_ids: z.array(z.number().int()),
  storage_quota_mb: z.number().int(),
  status,
  /** How many tenants are on it. */
  tenants: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type PackageView = z.infer<typeof packageView>;
