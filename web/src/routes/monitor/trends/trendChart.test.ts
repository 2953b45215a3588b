import { describe, expect, it } from 'vitest';
import type { Trends } from '../../../api/monitor';
import { seriesOf, trendOption, trendRows, withGaps } from './trendChart';

const point = (at: string, avg: number, max = avg, samples = 1) => ({ at, avg, max, samples });
const TRENDS: Trends = {
  range: '1h',
  bucket_seconds: 60,
  from: '2026-03-01T11:00:00.000Z',
  to: '2026-03-01T12:00:00.000Z',
  series: [
    {
      metric: 'server.cpu_percent',
      service: null,
      points: [point('2026-03-01T11:00:00.000Z', 10, 12, 2), point('2026-03-01T11:01:00.000Z', 20)],
    },
    {
      metric: 'service.error_rate',
      service: 'identity',
      points: [point('2026-03-01T11:00:00.000Z', 0.5)],
    },
    {
      metric: 'service.error_rate',
      service: 'auth',
      points: [point('2026-03-01T11:00:00.000Z', 0.1), point('2026-03-01T11:01:00.000Z', 0)],
    },
    { metric: 'db.pool_in_use', service: null, points: [] },
  ],
};
const labels = { avg: 'Average', max: 'Maximum', unit: '%' };

describe('a metric trend as a chart and a table', () => {
  it('picks the series of one metric, services by name, none without points', () => {
    expect(seriesOf(TRENDS, 'service.error_rate').map((s) => s.service)).toEqual([
      'auth',
      'identity',
    ]);
    expect(seriesOf(TRENDS, 'db.pool_in_use')).toEqual([]);
    expect(seriesOf(undefined, 'db.pool_in_use')).toEqual([]);
  });

  it('breaks the line where a bucket is missing', () => {
    const points = [
      point('2026-03-01T11:00:00.000Z', 1),
      point('2026-03-01T11:01:00.000Z', 2),
      point('2026-03-01T11:05:00.000Z', 3),
    ];
    expect(withGaps(points, 60, (p) => p.avg)).toEqual([
      ['2026-03-01T11:00:00.000Z', 1],
      ['2026-03-01T11:01:00.000Z', 2],
      ['2026-03-01T11:02:00.000Z', null],
      ['2026-03-01T11:05:00.000Z', 3],
    ]);
  });

  it('plots a platform metric as its average and maximum', () => {
    const option = trendOption(
      'server.cpu_percent',
      seriesOf(TRENDS, 'server.cpu_percent'),
      TRENDS,
      labels,
      String,
    );
    expect(option.series.map((s) => s.name)).toEqual(['Average', 'Maximum']);
    expect(option.series[1]!.data).toEqual([
      ['2026-03-01T11:00:00.000Z', 12],
      ['2026-03-01T11:01:00.000Z', 20],
    ]);
    expect(option.yAxis.name).toBe('%');
    // The axis spans the whole hour, not only the minutes sampled.
    expect(option.xAxis).toMatchObject({ min: TRENDS.from, max: TRENDS.to });
  });

  it('plots a per-service metric as a line per service, the error share as a percentage', () => {
    const option = trendOption(
      'service.error_rate',
      seriesOf(TRENDS, 'service.error_rate'),
      TRENDS,
      labels,
      String,
    );
    expect(option.series.map((s) => s.name)).toEqual(['auth', 'identity']);
    expect(option.series[0]!.data).toEqual([
      ['2026-03-01T11:00:00.000Z', 10],
      ['2026-03-01T11:01:00.000Z', 0],
    ]);
  });

  it('tables the newest bucket first, a column per service or the platform average and maximum', () => {
    expect(trendRows('server.cpu_percent', seriesOf(TRENDS, 'server.cpu_percent'))).toEqual([
      { at: '2026-03-01T11:01:00.000Z', avg: 20, max: 20, samples: 1 },
      { at: '2026-03-01T11:00:00.000Z', avg: 10, max: 12, samples: 2 },
    ]);
    expect(trendRows('service.error_rate', seriesOf(TRENDS, 'service.error_rate'))).toEqual([
      { at: '2026-03-01T11:01:00.000Z', 'service:auth': 0 },
      { at: '2026-03-01T11:00:00.000Z', 'service:auth': 10, 'service:identity': 50 },
    ]);
  });
});
