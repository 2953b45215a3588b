import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';

const time = z.iso.datetime({ offset: true }).optional();

export const listLoginLogsQuery = z.object({
  ...pageQuery,
  username: z.string().max(64).optional().describe('exact username'),
  success: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  login_type: z.string().max(32).optional().describe('password, github, google or totp'),
  ip: z.string().max(64).optional(),
  start_time: time,
  end_time: time,
});
export type ListLoginLogsQuery = z.infer<typeof listLoginLogsQuery>;
export type LoginLogFilter = Omit<ListLoginLogsQuery, 'page' | 'page_size'> & { user_id?: number };

export const myLoginLogsQuery = z.object({ ...pageQuery });

/** `days` is checked by the service (an integer ≥ 0, else 400 with code 40000). */
export const clearLoginLogsQuery = z.object({
  days: z.string().max(20).optional().describe('delete logs older than this many days; 0 = all'),
});

export const loginLogView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  username: z.string(),
  login_type: z.string(),
  success: z.boolean(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  location: z.string().nullable(),
  device: z.string().nullable(),
  os: z.string().nullable(),
  browser: z.string().nullable(),
  device_id: z.string().nullable(),
  new_device: z.boolean(),
  created_at: z.string(),
});
export type LoginLogView = z.infer<typeof loginLogView>;

export const loginStatsView = z.object({
  total: z.number().int(),
  success: z.number().int(),
  failed: z.number().int(),
  unique_users: z.number().int(),
  by_type: z.record(z.string(), z.number().int()).describe('{<login_type>: count}'),
});

export const loginTrendView = z
  .array(z.object({ date: z.string(), success: z.number().int(), failed: z.number().int() }))
  .describe('7 UTC days, oldest first, ending today');

export const clearResultView = z.object({ deleted: z.number().int() });

/**
 * The login event as the auth service publishes it (auth.login.success / auth.login.failed).
 * Anything that does not match cannot be stored: the message is redelivered, then dead.
 */
export const loginEventPayload = z.object({
  event_id: z.string().min(1).max(128),
  tenant_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  username: z.string().max(256),
  login_type: z.string().min(1).max(32),
  success: z.boolean(),
  reason: z.string().max(256).nullable().optional(),
  ip: z.string().max(64).nullable().optional(),
  user_agent: z.string().nullable().optional(),
  device_id: z.string().max(128).nullable().optional(),
  session_id: z.number().int().nullable().optional(),
  occurred_at: z.iso.datetime({ offset: true }).optional(),
});
export type LoginEventPayload = z.infer<typeof loginEventPayload>;
