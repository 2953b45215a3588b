/**
 * The analytics charts' ECharts options built from `GET /bpm/stats`, kept apart from the page so
 * what each chart plots (and in which unit) is tested without a browser; the texts come in
 * already translated.
 */
import type { BpmStats } from '../../../api/approvalsAdmin';

/** A duration in the largest unit that keeps it readable: hours, minutes or seconds. */
export function durationParts(ms: number): {
  unit: 'hours' | 'minutes' | 'seconds';
  value: string;
} {
  if (ms >= 3_600_000) return { unit: 'hours', value: (ms / 3_600_000).toFixed(1) };
  if (ms >= 60_000) return { unit: 'minutes', value: (ms / 60_000).toFixed(1) };
  return { unit: 'seconds', value: (ms / 1000).toFixed(1) };
}

/** A rate of 0..1 as a whole percentage, or a dash while nothing finished. */
export const percent = (rate: number | null) =>
  rate === null ? '-' : `${Math.round(rate * 100)}%`;

/** The status slices with a count, in the order given, named in the reader's language. */
export function distributionOption(
  distribution: BpmStats['status_distribution'],
  order: readonly string[],
  name: (status: string) => string,
) {
  const data = order
    .filter((s) => (distribution[s] ?? 0) > 0)
    .map((s) => ({ name: name(s), value: distribution[s] ?? 0 }));
  return {
    tooltip: { trigger: 'item' },
    legend: { bottom: 0 },
    series: [{ type: 'pie', radius: ['35%', '65%'], data }],
  };
}

/** Started and finished per day over the 30 days, oldest first. */
export function trendOption(
  trend: BpmStats['trend_30d'],
  labels: { started: string; finished: string },
) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 40, right: 16, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: trend.map((d) => d.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: labels.started, type: 'line', data: trend.map((d) => d.started) },
      { name: labels.finished, type: 'line', data: trend.map((d) => d.finished) },
    ],
  };
}

/** Approval rate (%) and average duration (hours) per definition, on two axes. */
export function definitionsOption(
  definitions: BpmStats['definitions'],
  labels: { rate: string; duration: string },
) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 48, right: 48, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: definitions.map((d) => d.definition_key) },
    yAxis: [
      { type: 'value', name: '%', max: 100 },
      { type: 'value', name: 'h' },
    ],
    series: [
      {
        name: labels.rate,
        type: 'bar',
        data: definitions.map((d) =>
          d.approval_rate === null ? null : Math.round(d.approval_rate * 100),
        ),
      },
      {
        name: labels.duration,
        type: 'bar',
        yAxisIndex: 1,
        data: definitions.map((d) =>
          d.avg_duration_ms === null ? null : Number((d.avg_duration_ms / 3_600_000).toFixed(2)),
        ),
      },
    ],
  };
}

/** The slowest steps, slowest on top, by their average task time in hours. */
export function bottlenecksOption(bottlenecks: BpmStats['bottlenecks'], label: string) {
  const rows = [...bottlenecks].reverse();
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 160, right: 24, top: 16, bottom: 32 },
    xAxis: { type: 'value', name: 'h' },
    yAxis: { type: 'category', data: rows.map((b) => `${b.node_name} · ${b.definition_key}`) },
    series: [
      {
        name: label,
        type: 'bar',
        data: rows.map((b) => Number((b.avg_duration_ms / 3_600_000).toFixed(2))),
      },
    ],
  };
}
