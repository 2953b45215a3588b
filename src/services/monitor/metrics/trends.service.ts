import type { MonitorDb } from '../monitor.tables.js';
import { bucketedSamples } from './samples.repo.js';

/** Each range and the bucket its samples are aggregated into. */
export const TREND_RANGES = {
  '1h': { seconds: 3600, bucketSeconds: 60 },
  '24h': { seconds: 24 * 3600, bucketSeconds: 15 * 60 },
  '7d': { seconds: 7 * 24 * 3600, bucketSeconds: 2 * 3600 },
} as const;
export type TrendRange = keyof typeof TREND_RANGES;

export interface TrendPoint {
  /** The bucket's start (buckets are aligned on the epoch). */
  at: string;
  avg: number;
  max: number;
  samples: number;
}

export interface Trends {
  range: TrendRange;
  bucket_seconds: number;
  from: string;
  to: string;
  series: { metric: string; service: string | null; points: TrendPoint[] }[];
}

/**
 * The samples of the range ending now, per metric and service, in buckets aligned on the epoch
 * (a bucket holds the samples with floor(epoch / size) equal): avg and max of each; a bucket
 * without samples is absent.
 */
export async function metricTrends(
  db: MonitorDb,
  range: TrendRange,
  now: Date,
  metric?: string,
): Promise<Trends> {
  const { seconds, bucketSeconds } = TREND_RANGES[range];
  const from = new Date(now.getTime() - seconds * 1000);
  const rows = await bucketedSamples(db, { from, to: now, bucketSeconds, metric });
  const series: Trends['series'] = [];
  for (const row of rows) {
    const service = row.service === '' ? null : row.service;
    let last = series.at(-1);
    if (!last || last.metric !== row.metric || last.service !== service) {
      last = { metric: row.metric, service, points: [] };
      series.push(last);
    }
    last.points.push({
      at: new Date(Number(row.bucket) * 1000).toISOString(),
      avg: Number(row.avg),
      max: Number(row.max),
      samples: Number(row.samples),
    });
  }
  return {
    range,
    bucket_seconds: bucketSeconds,
    from: from.toISOString(),
    to: now.toISOString(),
    series,
  };
}
