import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { until } from '../topology/topology.js';
import { insertSamples } from './monitor-fixtures.js';

// The metric sampler for real: a round every second over the running platform.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ MONITOR_SAMPLE_INTERVAL: '1s' });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const trends = async () =>
  (await platform.call('GET', '/api/v1/monitor/metrics/trends?range=1h', { token: admin })).body
    .data;

describe('the metric sampler', () => {
  it('records the server, database and cache, and each service\u2019s request and error rates', async () => {
    const old = new Date(Date.now() - 7 * 24 * 3600 * 1000 - 60_000);
    await insertSamples(platform, [{ metric: 'server.cpu_percent', value: 1, at: old }]);
    // Traffic to identity between rounds, so its request rate is above zero.
    const series = await until(
      'a request rate above zero for identity',
      async () => {
        await platform.call('GET', '/api/v1/users', { token: admin });
        const data = await trends();
        const rate = data.series.find(
          (s: any) => s.metric === 'service.request_rate' && s.service === 'identity',
        );
        return rate?.points.some((p: any) => p.max > 0) ? data.series : undefined;
      },
      20_000,
    );
    const keys = series.map((s: any) => `${s.metric}/${s.service ?? ''}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'server.cpu_percent/',
        'server.memory_percent/',
        'server.event_loop_delay_ms/',
        'db.latency_ms/',
        'cache.latency_ms/',
        ...['auth', 'identity', 'bpm', 'audit', 'files', 'monitor'].flatMap((s) => [
          `service.request_rate/${s}`,
          `service.error_rate/${s}`,
        ]),
      ]),
    );
    const errors = series.find(
      (s: any) => s.metric === 'service.error_rate' && s.service === 'identity',
    );
    for (const p of errors.points) expect(p.max).toBeGreaterThanOrEqual(0);
    // Samples older than 7 days are pruned by the rounds.
    const left = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM mon_metric_samples WHERE sampled_at <= ${old}`.execute(
      platform.kernel.database.db,
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('reports its heartbeat like every job', async () => {
    const job = await until('the sampler\u2019s heartbeat', async () => {
      const res = await platform.call('GET', '/api/v1/monitor/jobs/heartbeats', { token: admin });
      return res.body.data.find((j: any) => j.name === 'monitor.metric_sampler' && j.last_run_at);
    });
    expect(job).toMatchObject({ status: 'ok', interval_seconds: 10 });
  });
});
