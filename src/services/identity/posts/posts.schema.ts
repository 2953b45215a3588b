import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { keywordQuery, status, timestamp } from '../identity.schema.js';

const code = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{1,63}$/, '2 to 64 of a-z, 0-9, _ or -, from a letter');
const name = z.string().trim().min(1).max(64);
const sort = z.number().int().min(-1_000_000).max(1_000_000);

export const createPostBody = z.object({
  code,
  name,
  sort: sort.optional(),
  status: status.optional(),
});
export type CreatePostInput = z.infer<typeof createPostBody>;
export const updatePostBody = createPostBody.partial();
export type UpdatePostInput = z.infer<typeof updatePostBody>;

export const listPostsQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the code or name'),
  status: status.optional(),
});
export type ListPostsQuery = z.infer<typeof listPostsQuery>;

export const postView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  sort: z.number().int(),
  status,
  /** How many users hold it. */
  holders: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type PostView = z.infer<typeof postView>;
