/**
 * A metric's trend as an ECharts line chart and as the table beside it, built from
 * `GET /monitor/metrics/trends`: platform-wide metrics plot their bucket average and maximum,
 * per-service ones a line per service. A missing bucket (nothing sampled: the platform was down)
 * breaks the line rather than joining its neighbours. The texts come in already translated.
 */
import type { Trends, TrendSeries } from '../../../api/monitor';
import { shown } from '../shared/format';

/** The series of one metric, per-service ones by service name. */
export function seriesOf(trends: Trends | undefined, metric: string): TrendSeries[] {
  return (trends?.series ?? [])
    .filter((s) => s.metric === metric && s.points.length > 0)
    .sort((a, b) => (a.service ?? '').localeCompare(b.service ?? ''));
}

type Point = [string, number | null];

/** The points as [time, value], with a null where a bucket is missing, so the line breaks. */
export function withGaps(
  points: TrendSeries['points'],
  bucketSeconds: number,
  value: (p: TrendSeries['points'][number]) => number,
): Point[] {
  const out: Point[] = [];
  let previous: number | null = null;
  for (const p of points) {
    const at = Date.parse(p.at);
    if (previous !== null && at - previous > bucketSeconds * 1000) {
      out.push([new Date(previous + bucketSeconds * 1000).toISOString(), null]);
    }
    out.push([p.at, value(p)]);
    previous = at;
  }
  return out;
}

/** The chart: one line per service, or the platform's average and maximum. */
export function trendOption(
  metric: string,
  series: readonly TrendSeries[],
  /** The range's buckets and bounds: the time axis spans the whole range, sampled or not. */
  window: Pick<Trends, 'bucket_seconds' | 'from' | 'to'>,
  labels: { avg: string; max: string; unit: string },
  /** A shown value in its unit, for the tooltip. */
  format: (value: number) => string,
) {
  const lines =
    series.length === 1 && series[0]!.service === null
      ? [
          {
            name: labels.avg,
            data: withGaps(series[0]!.points, window.bucket_seconds, (p) => p.avg),
          },
          {
            name: labels.max,
            data: withGaps(series[0]!.points, window.bucket_seconds, (p) => p.max),
            lineStyle: { type: 'dashed' },
          },
        ]
      : series.map((s) => ({
          name: s.service ?? labels.avg,
          data: withGaps(s.points, window.bucket_seconds, (p) => p.avg),
        }));
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : '-'),
    },
    legend: { bottom: 0, type: 'scroll' },
    grid: { left: 56, right: 16, top: 32, bottom: 56 },
    xAxis: { type: 'time', min: window.from, max: window.to },
    yAxis: { type: 'value', name: labels.unit, min: 0 },
    series: lines.map((line) => ({
      type: 'line',
      showSymbol: false,
      ...line,
      data: line.data.map(([at, v]) => [at, v === null ? null : shown(metric, v)]),
    })),
  };
}

/** A row of the table: the bucket's start and a value per column. */
export type TrendRow = { at: string } & Record<string, number | string>;

/**
 * The table beside the chart, newest bucket first: `avg`, `max` and `samples` of a
 * platform-wide metric, or each service's average (a column per service).
 */
export function trendRows(metric: string, series: readonly TrendSeries[]): TrendRow[] {
  const rows = new Map<string, TrendRow>();
  const platform = series.length === 1 && series[0]!.service === null;
  for (const s of series) {
    for (const p of s.points) {
      const row = rows.get(p.at) ?? { at: p.at };
      if (platform) {
        row.avg = shown(metric, p.avg);
        row.max = shown(metric, p.max);
        row.samples = p.samples;
      } else {
        row[`service:${s.service ?? ''}`] = shown(metric, p.avg);
      }
      rows.set(p.at, row);
    }
  }
  return [...rows.values()].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}
