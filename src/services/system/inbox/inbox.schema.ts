import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { timestamp } from '../../../platform/http/params.js';

export const listInboxQuery = z.object({
  ...pageQuery,
  unread: z.enum(['true', 'false']).optional().describe('true: unread only; false: read only'),
});
export type ListInboxQuery = z.infer<typeof listInboxQuery>;

export const inboxView = z.object({
  id: z.number().int(),
  category: z
    .string()
    .describe('e.g. bpm.todo, bpm.cc, bpm.timeout, bpm.terminal, security.new_device'),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable().describe('a console route, e.g. /instances/12'),
  read_at: timestamp.nullable(),
  created_at: timestamp,
});
export type InboxView = z.infer<typeof inboxView>;
