import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { keywordQuery, timestamp } from '../../../platform/http/params.js';

export const NOTICE_LEVELS = ['info', 'success', 'warning', 'error'] as const;

/** An instant in ISO 8601 with a zone (`Z` or an offset); stored and answered in UTC. */
const instant = z.iso.datetime({ offset: true });

export const createNoticeBody = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(20_000).describe('plain text or Markdown; the console renders it'),
  level: z.enum(NOTICE_LEVELS).optional().describe('default info'),
  starts_at: instant.nullable().optional().describe('shown from then; null: from publication'),
  ends_at: instant
    .nullable()
    .optional()
    .describe('shown until then (after starts_at); null: no end'),
  published: z.boolean().optional().describe('default false: a draft nobody but editors sees'),
});
export type CreateNoticeInput = z.infer<typeof createNoticeBody>;

/** Partial update; the window is checked on the result (ends_at after starts_at). */
export const updateNoticeBody = createNoticeBody.partial();
export type UpdateNoticeInput = z.infer<typeof updateNoticeBody>;

export const listNoticesQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the title'),
  level: z.enum(NOTICE_LEVELS).optional(),
  published: z.enum(['true', 'false']).optional(),
});
export type ListNoticesQuery = z.infer<typeof listNoticesQuery>;

export const noticeView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  title: z.string(),
  body: z.string(),
  level: z.enum(NOTICE_LEVELS),
  starts_at: timestamp.nullable(),
  ends_at: timestamp.nullable(),
  published: z.boolean(),
  created_by: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type NoticeView = z.infer<typeof noticeView>;

/** What every user reads of an effective notice. */
export const effectiveNoticeView = noticeView.pick({
  id: true,
  title: true,
  body: true,
  level: true,
  starts_at: true,
  ends_at: true,
  created_at: true,
});
export type EffectiveNoticeView = z.infer<typeof effectiveNoticeView>;
