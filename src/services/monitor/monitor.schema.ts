import { z } from 'zod';
import { envelopeOf } from '../../platform/http/envelope.js';
import { TREND_RANGES } from './metrics/trends.service.js';
import { METRIC_NAMES } from './metrics/metric-names.js';

export const serviceHealth = z.object({
  name: z.string(),
  status: z.enum(['ready', 'down']),
  latency_ms: z.number().int(),
  checked_at: z.string(),
  error: z.string().optional().describe('why it is down'),
});
export const servicesEnvelope = envelopeOf(z.array(serviceHealth));

export const jobHeartbeat = z.object({
  name: z.string(),
  last_run_at: z.string().nullable().describe('null: a declared job that has never reported'),
  interval_seconds: z.number().int(),
  status: z.enum(['ok', 'error', 'stale']),
  message: z.string().nullable(),
});
export const heartbeatsEnvelope = envelopeOf(z.array(jobHeartbeat));

export const trendsQuery = z.object({
  range: z.enum(Object.keys(TREND_RANGES) as [keyof typeof TREND_RANGES]),
  metric: z
    .enum(METRIC_NAMES as [string, ...string[]])
    .optional()
    .describe('one metric only'),
});

const trendPoint = z.object({
  at: z.string().describe('the bucket\u2019s start'),
  avg: z.number(),
  max: z.number(),
  samples: z.number().int(),
});
export const trendsEnvelope = envelopeOf(
  z.object({
    range: z.enum(Object.keys(TREND_RANGES) as [keyof typeof TREND_RANGES]),
    bucket_seconds: z.number().int(),
    from: z.string(),
    to: z.string(),
    series: z.array(
      z.object({
        metric: z.string(),
        service: z.string().nullable().describe('null for a platform-wide metric'),
        points: z.array(trendPoint),
      }),
    ),
  }),
);
