import { describe, expect, it } from 'vitest';
import {
  bottlenecksOption,
  definitionsOption,
  distributionOption,
  durationParts,
  percent,
  trendOption,
} from './chartOptions';

describe('durationParts and percent', () => {
  it('reads a duration in hours, minutes or seconds', () => {
    expect(durationParts(5_400_000)).toEqual({ unit: 'hours', value: '1.5' });
    expect(durationParts(90_000)).toEqual({ unit: 'minutes', value: '1.5' });
    expect(durationParts(1_500)).toEqual({ unit: 'seconds', value: '1.5' });
  });
  it('writes a rate as a percentage and nothing finished as a dash', () => {
    expect(percent(0.666)).toBe('67%');
    expect(percent(0)).toBe('0%');
    expect(percent(null)).toBe('-');
  });
});

describe('chart options', () => {
  it('plots only the statuses with requests, in order, named by the caller', () => {
    const option = distributionOption(
      { approved: 3, running: 2, canceled: 0 },
      ['running', 'approved', 'canceled'],
      (s) => s.toUpperCase(),
    );
    expect(option.series[0]?.data).toEqual([
      { name: 'RUNNING', value: 2 },
      { name: 'APPROVED', value: 3 },
    ]);
  });
  it('plots each day of the trend, started and finished', () => {
    const option = trendOption(
      [
        { date: '2026-11-25', started: 2, finished: 1 },
        { date: '2026-11-26', started: 0, finished: 4 },
      ],
      { started: 'S', finished: 'F' },
    );
    expect(option.xAxis.data).toEqual(['11-25', '11-26']);
    expect(option.series.map((s) => s.data)).toEqual([
      [2, 0],
      [1, 4],
    ]);
  });
  it('plots the rate in percent and the duration in hours, leaving unfinished ones empty', () => {
    const option = definitionsOption(
      [
        {
          definition_key: 'leave',
          finished: 4,
          approved: 3,
          approval_rate: 0.75,
          avg_duration_ms: 7_200_000,
        },
        {
          definition_key: 'trip',
          finished: 0,
          approved: 0,
          approval_rate: null,
          avg_duration_ms: null,
        },
      ],
      { rate: 'R', duration: 'D' },
    );
    expect(option.series[0]?.data).toEqual([75, null]);
    expect(option.series[1]?.data).toEqual([2, null]);
  });
  it('puts the slowest step on top', () => {
    const option = bottlenecksOption(
      [
        {
          definition_key: 'k',
          node_id: 'a',
          node_name: 'Slow',
          avg_duration_ms: 7_200_000,
          pending: 1,
        },
        {
          definition_key: 'k',
          node_id: 'b',
          node_name: 'Fast',
          avg_duration_ms: 3_600_000,
          pending: 0,
        },
      ],
      'avg',
    );
    // ECharts draws a category axis from the bottom up: the last entry is the top bar.
    expect(option.yAxis.data).toEqual(['Fast · k', 'Slow · k']);
    expect(option.series[0]?.data).toEqual([1, 2]);
  });
});
