import { z } from 'zod';
import { keywordQuery } from '../../../platform/http/params.js';
import { pageQuery } from '../../../platform/http/envelope.js';

const ids = z.array(z.number().int().min(1)).max(1000);

export const starters = z
  .object({ user_ids: ids.optional(), role_ids: ids.optional(), dept_ids: ids.optional() })
  .describe('who may start it; absent or all empty = every active user of the tenant');

/** The designer's documents are checked in full by the engine's validators, not here. */
const document = z.record(z.string(), z.unknown());

export const createDefinitionBody = z.object({
  key: z.string().regex(/^[a-z][a-z0-9_-]{1,63}$/, '2 to 64 lower-case letters, digits, _ or -'),
  name: z.string().trim().min(1).max(100),
  category: z.string().max(50).nullish(),
  form_mode: z.enum(['flow', 'business']),
  biz_type: z
    .string()
    .regex(/^[a-z][a-z0-9_.-]{1,63}$/, '2 to 64 lower-case letters, digits, _ . or -')
    .nullish(),
  form_schema: document,
  node_tree: document,
  starters: starters.optional(),
});

export const updateDefinitionBody = createDefinitionBody.omit({ key: true }).partial();

export const listDefinitionsQuery = z.object({
  ...pageQuery,
  key: z.string().max(64).optional(),
  status: z.enum(['draft', 'published', 'archived', 'suspended']).optional(),
  keyword: keywordQuery,
});

export const definitionView = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  version: z.number().int(),
  status: z.enum(['draft', 'published', 'archived', 'suspended']),
  form_mode: z.enum(['flow', 'business']),
  biz_type: z.string().nullable(),
  form_schema: z.unknown(),
  node_tree: z.unknown(),
  starters: starters,
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
});

export type CreateDefinitionInput = z.infer<typeof createDefinitionBody>;
export type UpdateDefinitionInput = z.infer<typeof updateDefinitionBody>;
export type ListDefinitionsQuery = z.infer<typeof listDefinitionsQuery>;
export type DefinitionView = z.infer<typeof definitionView>;
