import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { sortQuery } from '../../../platform/http/sort.js';

export const CC_SORT = ['created_at', 'title'] as const;

export const ccQuery = z.object({
  ...pageQuery,
  ...sortQuery(CC_SORT, 'id, newest first'),
  unread: z.enum(['true', 'false']).optional(),
});

export const ccView = z.object({
  id: z.number().int(),
  instance_id: z.number().int(),
  node_id: z.string(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  instance_title: z.string(),
});
