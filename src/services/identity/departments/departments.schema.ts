import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { id, timestamp } from '../identity.schema.js';

const name = z.string().trim().min(1).max(64);
const sort = z.number().int().min(-1_000_000).max(1_000_000);

export const createDepartmentBody = z.object({
  name,
  parent_id: id.nullable().optional(),
  leader_id: id.nullable().optional(),
  sort: sort.optional(),
});
export type CreateDepartmentInput = z.infer<typeof createDepartmentBody>;

/** Partial update; `parent_id: null` moves the department to the top level. */
export const updateDepartmentBody = z.object({
  name: name.optional(),
  parent_id: id.nullable().optional(),
  leader_id: id.nullable().optional(),
  sort: sort.optional(),
});
export type UpdateDepartmentInput = z.infer<typeof updateDepartmentBody>;

export const listDepartmentsQuery = z.object({
  ...pageQuery,
  parent_id: z
    .string()
    .regex(/^(0|[1-9]\d{0,14})$/, 'must be a department id, or 0 for top-level departments')
    .transform(Number)
    .optional()
    .describe('children of this department; 0 lists the top-level departments'),
});
export type ListDepartmentsQuery = z.infer<typeof listDepartmentsQuery>;
export type DepartmentFilter = Omit<ListDepartmentsQuery, 'page' | 'page_size'>;

export const departmentView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int().nullable(),
  leader_id: z.number().int().nullable(),
  sort: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type DepartmentView = z.infer<typeof departmentView>;

export type DepartmentNode = DepartmentView & { children: DepartmentNode[] };

/** One department of the tree with its sub-departments, ordered by `sort`, then id. */
export const departmentNode: z.ZodType<DepartmentNode> = departmentView
  .extend({
    get children() {
      return z.array(departmentNode);
    },
  })
  // Recursive: OpenAPI can only express it as a named component that refers to itself.
  .meta({ id: 'DepartmentNode' });
