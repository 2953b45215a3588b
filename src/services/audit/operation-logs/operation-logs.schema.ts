import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { idQuery, timestamp } from '../../../platform/http/params.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const time = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/** Filters shared by the list and the CSV export. */
export const operationLogFilterQuery = {
  anonymous: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('true: only requests without an established principal; false: only the others'),
  user_id: idQuery.describe('exact user id'),
  username: z.string().max(100).optional().describe('part of the username, matched as text'),
  module: z.string().max(64).optional().describe('exact module (first path segment after /api/v1)'),
  method: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(METHODS))
    .optional()
    .describe('HTTP method, any case'),
  status: z
    .string()
    .regex(/^[1-5]\d\d$/, 'must be an HTTP status')
    .transform(Number)
    .optional()
    .describe('exact HTTP status'),
  path: z.string().max(200).optional().describe('part of the path, matched as text'),
  request_id: z.string().max(128).optional().describe('exact request id'),
  start_time: time.optional().describe('ISO 8601; created at or after'),
  end_time: time.optional().describe('ISO 8601; created before'),
};

export const listOperationLogsQuery = z.object({ ...pageQuery, ...operationLogFilterQuery });
export type ListOperationLogsQuery = z.infer<typeof listOperationLogsQuery>;
export type OperationLogFilter = Omit<ListOperationLogsQuery, 'page' | 'page_size'>;

export const exportOperationLogsQuery = z.object(operationLogFilterQuery);

export const statsQuery = z.object({
  start_time: time.optional(),
  end_time: time.optional(),
});
export type StatsQuery = z.infer<typeof statsQuery>;

/** `days`: an integer ≥ 0, checked by the service (anything else is 40000). */
export const clearQuery = z.object({ days: z.string().optional() });

/** A list item: every field but the bodies (the detail has them). */
export const operationLogItem = z.object({
  id: z.number().int(),
  /** Null for an anonymous entry. */
  tenant_id: z.number().int().nullable(),
  /** No principal was established: no tenant (platform admins read it), `username` as claimed. */
  anonymous: z.boolean(),
  user_id: z.number().int().nullable(),
  username: z.string(),
  module: z.string(),
  action: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  ip: z.string(),
  user_agent: z.string(),
  latency_ms: z.number().int(),
  request_id: z.string(),
  created_at: timestamp,
});
export type OperationLogItem = z.infer<typeof operationLogItem>;

/** The detail: bodies as stored, masked JSON text capped at 16 KB (null when empty). */
export const operationLogView = operationLogItem.extend({
  request_body: z.string().nullable(),
  response_body: z.string().nullable(),
});
export type OperationLogView = z.infer<typeof operationLogView>;

export const operationLogStats = z.object({
  total: z.number().int(),
  /** Responses with status ≥ 400. */
  errors: z.number().int(),
  avg_latency_ms: z.number(),
  p95_latency_ms: z.number(),
  by_module: z.array(z.object({ module: z.string(), count: z.number().int() })),
  by_status: z.array(z.object({ status: z.number().int(), count: z.number().int() })),
  /** The 10 most requested paths. */
  top_paths: z.array(
    z.object({ path: z.string(), count: z.number().int(), avg_latency_ms: z.number() }),
  ),
});
export type OperationLogStats = z.infer<typeof operationLogStats>;

/** CSV columns, in order: the API's field names. */
export const EXPORT_COLUMNS = [
  'id',
  'tenant_id',
  'anonymous',
  'user_id',
  'username',
  'module',
  'action',
  'method',
  'path',
  'status',
  'ip',
  'user_agent',
  'latency_ms',
  'request_id',
  'request_body',
  'response_body',
  'created_at',
] as const;
