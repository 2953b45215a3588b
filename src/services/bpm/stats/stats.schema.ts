import { z } from 'zod';
import type { BpmTables } from '../bpm.tables.js';

type InstanceStatus = BpmTables['bpm_instances']['status'];

/** Every instance status, in lifecycle order: `status_distribution` always carries all of them. */
export const INSTANCE_STATUSES = [
  'running',
  'suspended',
  'approved',
  'rejected',
  'canceled',
  'terminated',
] as const satisfies readonly InstanceStatus[];
// Fails to compile when a status is added to the table type but not listed above.
const _everyStatusListed: Exclude<InstanceStatus, (typeof INSTANCE_STATUSES)[number]> extends never
  ? true
  : never = true;

export const TREND_DAYS = 30;
export const MAX_BOTTLENECKS = 10;

const count = z.number().int().min(0);
const durationMs = z.number().int().describe('milliseconds, rounded');

export const statsView = z.object({
  status_distribution: z
    .record(z.enum(INSTANCE_STATUSES), count)
    .describe('instances of the tenant by status; every status present, 0 when none'),
  trend_30d: z
    .array(
      z.object({
        date: z.iso.date().describe('UTC day, YYYY-MM-DD'),
        started: count.describe('instances created that day'),
        finished: count.describe('instances that reached a terminal status that day'),
      }),
    )
    .length(TREND_DAYS)
    .describe('the last 30 days, oldest first, ending today (UTC)'),
  last_24h: z
    .object({
      approved: count.describe('approval steps approved (by a person or automatically)'),
      rejected: count.describe('approval steps rejected (by a person or automatically)'),
    })
    .describe('approval decisions of the last 24 hours'),
  definitions: z
    .array(
      z.object({
        definition_key: z.string(),
        finished: count.describe('instances in a terminal status'),
        approved: count,
        approval_rate: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .describe('approved / finished; null while none finished (0 would read as all rejected)'),
        avg_duration_ms: durationMs
          .nullable()
          .describe(
            'mean time from start to finish of the finished instances; null while none finished',
          ),
      }),
    )
    .describe('one entry per definition key with instances, by key'),
  bottlenecks: z
    .array(
      z.object({
        definition_key: z.string(),
        node_id: z.string(),
        node_name: z.string().describe('the name on the newest task of the node'),
        avg_duration_ms: durationMs.describe('mean time from task creation to completion'),
        pending: count.describe('tasks of the node pending now'),
      }),
    )
    .max(MAX_BOTTLENECKS)
    .describe('approval nodes with the longest mean task time (done tasks), slowest first'),
});

export type StatsView = z.infer<typeof statsView>;
