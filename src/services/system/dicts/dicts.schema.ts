import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { keywordQuery, timestamp } from '../../../platform/http/params.js';

export const MAX_DICT_ITEMS = 500;

const code = z
  .string()
  .regex(/^[a-z][a-z0-9._-]{1,63}$/, '2 to 64 of a-z, 0-9, . _ or -, from a letter');

/** `:code` of the items route (anything else is a 400). */
export const dictCodeParams = z.object({ code });

export const dictItem = z.object({
  value: z.string().trim().min(1).max(100).describe('what a select stores'),
  label: z.string().trim().min(1).max(100).describe('what a select shows'),
  label_en: z.string().trim().max(100).nullable().optional().describe('the English label'),
  sort: z.number().int().min(-1_000_000).max(1_000_000).optional().describe('default 0'),
  enabled: z.boolean().optional().describe('default true; a disabled item is not offered'),
});
export type DictItemInput = z.infer<typeof dictItem>;

export const createDictBody = z.object({
  code,
  name: z.string().trim().min(1).max(64),
  items: z
    .array(dictItem)
    .max(MAX_DICT_ITEMS)
    .optional()
    .describe('replaces every item; values unique; answered by sort, then position'),
});
export type CreateDictInput = z.infer<typeof createDictBody>;
export const updateDictBody = createDictBody.partial();
export type UpdateDictInput = z.infer<typeof updateDictBody>;

export const listDictsQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the code or name'),
});
export type ListDictsQuery = z.infer<typeof listDictsQuery>;

export const dictItemView = z.object({
  value: z.string(),
  label: z.string(),
  label_en: z.string().nullable(),
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type DictItem = z.infer<typeof dictItemView>;

export const dictView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  items: z.array(dictItemView),
  created_at: timestamp,
  updated_at: timestamp,
});
export type DictView = z.infer<typeof dictView>;

/** What a select reads: the enabled items only. */
export const dictOptionsView = z.object({
  code: z.string(),
  name: z.string(),
  items: z.array(dictItemView.omit({ enabled: true, sort: true })),
});
export type DictOptionsView = z.infer<typeof dictOptionsView>;
