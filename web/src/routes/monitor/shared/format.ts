/**
 * How the monitor page words its numbers: a metric's value in its unit, a period, how long ago
 * something happened, and which jobs need attention first. Pure, so the words are tested
 * without a browser; the page translates the unit keys (`units.<unit>`).
 */
import type { JobHeartbeat } from '../../../api/monitor';

/** The unit a metric's value is shown in (the error rate's share 0–1 as a percentage). */
export type Unit = 'percent' | 'ms' | 'count' | 'perSecond';

const UNITS: Record<string, Unit> = {
  'server.cpu_percent': 'percent',
  'server.memory_percent': 'percent',
  'server.event_loop_delay_ms': 'ms',
  'db.latency_ms': 'ms',
  'db.pool_in_use': 'count',
  'db.pool_waiting': 'count',
  'cache.latency_ms': 'ms',
  'service.request_rate': 'perSecond',
  'service.error_rate': 'percent',
  'service.outbox_pending': 'count',
  'service.outbox_dead': 'count',
};

export const unitOf = (metric: string): Unit => UNITS[metric] ?? 'count';

/** The value as shown: the error rate's share as a percentage, the rest as recorded. */
export const shown = (metric: string, value: number) =>
  metric === 'service.error_rate' ? value * 100 : value;

/** A number rounded to what a reader needs: whole counts, at most two decimals otherwise. */
export function rounded(value: number, unit: Unit): string {
  if (unit === 'count') return String(Math.round(value));
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return String(Number(value.toFixed(digits)));
}

/** A metric's value in its unit, as a key of `units` and the number to put in it. */
export function valueParts(metric: string, value: number): { unit: Unit; value: string } {
  const unit = unitOf(metric);
  return { unit, value: rounded(shown(metric, value), unit) };
}

/** A threshold as the API takes it from what the form shows (a percentage for the error rate). */
export const thresholdOf = (metric: string, input: number) =>
  metric === 'service.error_rate' ? Number((input / 100).toFixed(6)) : input;

/** A length of time in its largest whole unit: 86400 → 1 day, 90 → 90 seconds. */
export function periodParts(seconds: number): {
  unit: 'days' | 'hours' | 'minutes' | 'seconds';
  count: number;
} {
  if (seconds > 0 && seconds % 86_400 === 0) return { unit: 'days', count: seconds / 86_400 };
  if (seconds > 0 && seconds % 3_600 === 0) return { unit: 'hours', count: seconds / 3_600 };
  if (seconds > 0 && seconds % 60 === 0) return { unit: 'minutes', count: seconds / 60 };
  return { unit: 'seconds', count: seconds };
}

/** How long ago `at` was, in the largest unit that fits, for Intl.RelativeTimeFormat. */
export function agoParts(
  at: string,
  now: number,
): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const seconds = Math.round((Date.parse(at) - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return { value: seconds, unit: 'second' };
  if (abs < 3_600) return { value: Math.round(seconds / 60), unit: 'minute' };
  if (abs < 86_400) return { value: Math.round(seconds / 3_600), unit: 'hour' };
  return { value: Math.round(seconds / 86_400), unit: 'day' };
}

/** "3 minutes ago" in the reader's language. */
export function ago(at: string, now: number, language: string): string {
  const { value, unit } = agoParts(at, now);
  return new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(value, unit);
}

const SEVERITY: Record<JobHeartbeat['status'], number> = { error: 0, stale: 1, ok: 2 };

/** The jobs that need attention first (errors, then stale ones), each group in the API's order. */
export function byAttention(jobs: readonly JobHeartbeat[]): JobHeartbeat[] {
  return jobs
    .map((job, index) => ({ job, index }))
    .sort((a, b) => SEVERITY[a.job.status] - SEVERITY[b.job.status] || a.index - b.index)
    .map(({ job }) => job);
}

/** Whole days from now until `notAfter` (negative once past). */
export function daysLeft(notAfter: string, now: number): number {
  return Math.floor((Date.parse(notAfter) - now) / 86_400_000);
}

/** Within this many days a certificate is highlighted (the monitor raises its alert too). */
export const EXPIRY_WARNING_DAYS = 30;

/** How urgent a certificate's expiry is. */
export function expiryLevel(notAfter: string, now: number): 'expired' | 'soon' | 'ok' {
  if (Date.parse(notAfter) <= now) return 'expired';
  return daysLeft(notAfter, now) < EXPIRY_WARNING_DAYS ? 'soon' : 'ok';
}

/** A rule's condition in symbols: `> 80`. */
export const operatorSymbol = (operator: 'gt' | 'lt') => (operator === 'gt' ? '>' : '<');
