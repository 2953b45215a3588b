import { describe, expect, it } from 'vitest';
import type { JobHeartbeat } from '../../../api/monitor';
import {
  agoParts,
  byAttention,
  daysLeft,
  expiryLevel,
  periodParts,
  thresholdOf,
  valueParts,
} from './format';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const DAY = 86_400_000;

describe('the monitor page words its numbers', () => {
  it('shows each metric in its unit, the error rate as a percentage', () => {
    expect(valueParts('server.cpu_percent', 42.123)).toEqual({ unit: 'percent', value: '42.1' });
    expect(valueParts('db.latency_ms', 1.23456)).toEqual({ unit: 'ms', value: '1.23' });
    expect(valueParts('db.pool_in_use', 3.4)).toEqual({ unit: 'count', value: '3' });
    expect(valueParts('service.request_rate', 123.4)).toEqual({ unit: 'perSecond', value: '123' });
    expect(valueParts('service.error_rate', 0.025)).toEqual({ unit: 'percent', value: '2.5' });
  });

  it('takes an error-rate threshold as a percentage and gives the API its share', () => {
    expect(thresholdOf('service.error_rate', 5)).toBe(0.05);
    expect(thresholdOf('server.cpu_percent', 80)).toBe(80);
  });

  it('words a period in its largest whole unit', () => {
    expect(periodParts(10)).toEqual({ unit: 'seconds', count: 10 });
    expect(periodParts(90)).toEqual({ unit: 'seconds', count: 90 });
    expect(periodParts(300)).toEqual({ unit: 'minutes', count: 5 });
    expect(periodParts(7_200)).toEqual({ unit: 'hours', count: 2 });
    expect(periodParts(86_400)).toEqual({ unit: 'days', count: 1 });
    expect(periodParts(0)).toEqual({ unit: 'seconds', count: 0 });
  });

  it('says how long ago in the largest unit that fits', () => {
    expect(agoParts(new Date(NOW - 30_000).toISOString(), NOW)).toEqual({
      value: -30,
      unit: 'second',
    });
    expect(agoParts(new Date(NOW - 5 * 60_000).toISOString(), NOW)).toEqual({
      value: -5,
      unit: 'minute',
    });
    expect(agoParts(new Date(NOW - 3 * 3_600_000).toISOString(), NOW)).toEqual({
      value: -3,
      unit: 'hour',
    });
    expect(agoParts(new Date(NOW - 2 * DAY).toISOString(), NOW)).toEqual({
      value: -2,
      unit: 'day',
    });
  });

  it('lists failing jobs first, then stale ones, each group in the API order', () => {
    const job = (name: string, status: JobHeartbeat['status']): JobHeartbeat => ({
      name,
      status,
      last_run_at: null,
      interval_seconds: 10,
      message: null,
    });
    const sorted = byAttention([
      job('a', 'ok'),
      job('b', 'stale'),
      job('c', 'error'),
      job('d', 'ok'),
      job('e', 'stale'),
    ]);
    expect(sorted.map((j) => j.name)).toEqual(['c', 'b', 'e', 'a', 'd']);
  });

  it('counts whole days left and flags a certificate within 30 days or past', () => {
    const at = (ms: number) => new Date(NOW + ms).toISOString();
    expect(daysLeft(at(10 * DAY + 3_600_000), NOW)).toBe(10);
    expect(expiryLevel(at(10 * DAY), NOW)).toBe('soon');
    expect(expiryLevel(at(29 * DAY + 3_600_000), NOW)).toBe('soon');
    expect(expiryLevel(at(30 * DAY + 3_600_000), NOW)).toBe('ok');
    expect(expiryLevel(at(-1000), NOW)).toBe('expired');
    expect(daysLeft(at(-DAY - 1000), NOW)).toBe(-2);
  });
});
