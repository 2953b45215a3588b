import { SERVICE_NAMES } from '../../src/start.js';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricSampler } from '../../src/services/monitor/metrics/sampler.js';
import { MONITOR_PERMISSIONS } from '../../src/services/monitor/monitor.permissions.js';
import type { MonitorTables } from '../../src/services/monitor/monitor.tables.js';
import { createUserWith } from '../bpm/fixtures.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { insertSamples, platformAdminWith, writeHeartbeat } from './monitor-fixtures.js';

// Service probes, job heartbeats and metric trends. The sampler is held off (1 h interval) and
// the timeout scanner paced at 1 h, so the rows this file writes are the only ones in play.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({
    MONITOR_SAMPLE_INTERVAL: '1h',
    BPM_TIMEOUT_SCAN_INTERVAL: '1h',
  });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

describe('GET /api/v1/monitor/services', () => {
  it('probes every service of the platform and reports each ready with its latency', async () => {
    const res = await platform.call('GET', '/api/v1/monitor/services', { token: admin });
    expect(res.status).toBe(200);
    const names = res.body.data.map((s: any) => s.name);
    // Every module of the list, in its order (the gateway is not a module).
    expect(names).toEqual([...SERVICE_NAMES]);
    expect(names).toEqual(expect.arrayContaining(['auth', 'bpm', 'files', 'monitor']));
    for (const service of res.body.data) {
      expect(service).toMatchObject({ status: 'ready' });
      expect(Number.isInteger(service.latency_ms)).toBe(true);
      expect(Date.parse(service.checked_at)).not.toBeNaN();
      expect(service.error).toBeUndefined();
    }
  });

  it('serves the spec\u2019s bare path as an alias', async () => {
    const res = await platform.call('GET', '/monitor/services', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(SERVICE_NAMES.length);
  });
});

describe('GET /api/v1/monitor/jobs/heartbeats', () => {
  const heartbeats = async () => {
    const res = await platform.call('GET', '/api/v1/monitor/jobs/heartbeats', { token: admin });
    expect(res.status).toBe(200);
    return new Map<string, any>(res.body.data.map((j: any) => [j.name, j]));
  };

  it('lists a declared job that has never reported as stale, with no last run', async () => {
    const job = (await heartbeats()).get('monitor.metric_sampler');
    expect(job).toEqual({
      name: 'monitor.metric_sampler',
      last_run_at: null,
      interval_seconds: 3600,
      status: 'stale',
      message: 'never reported',
    });
  });

  it('lists every job the modules declare and leaves out one the settings turn off', async () => {
    const names = [...(await heartbeats()).keys()];
    expect(names).toEqual(
      expect.arrayContaining([
        'audit.login_consumer',
        'audit.notify_outbox',
        'audit.chain_checkpoint',
        'auth.login_relay',
        'bpm.outbox',
        'bpm.timeout_scanner',
        'monitor.metric_sampler',
      ]),
    );
    // AUDIT_LOG_RETENTION_DAYS is 0 here.
    expect(names).not.toContain('audit.log_retention');
  });

  it('shows a run within twice the interval as ok, and one older as stale', async () => {
    await writeHeartbeat(platform, {
      name: 'bpm.timeout_scanner',
      at: ago(2 * 3600 + 60),
      intervalSeconds: 3600,
      status: 'ok',
    });
    expect((await heartbeats()).get('bpm.timeout_scanner')).toMatchObject({
      status: 'stale',
      interval_seconds: 3600,
    });
    const recent = ago(2 * 3600 - 60);
    await writeHeartbeat(platform, {
      name: 'bpm.timeout_scanner',
      at: recent,
      intervalSeconds: 3600,
      status: 'ok',
    });
    expect((await heartbeats()).get('bpm.timeout_scanner')).toEqual({
      name: 'bpm.timeout_scanner',
      last_run_at: recent.toISOString(),
      interval_seconds: 3600,
      status: 'ok',
      message: null,
    });
  });

  it('shows a failed round as error with its message, until it goes stale', async () => {
    const name = uniq('test.failing_job');
    await writeHeartbeat(platform, {
      name,
      at: ago(5),
      intervalSeconds: 60,
      status: 'error',
      message: 'connection refused',
    });
    expect((await heartbeats()).get(name)).toMatchObject({
      status: 'error',
      message: 'connection refused',
    });
    await writeHeartbeat(platform, {
      name,
      at: ago(121),
      intervalSeconds: 60,
      status: 'error',
      message: 'connection refused',
    });
    expect((await heartbeats()).get(name)).toMatchObject({ status: 'stale' });
  });

  it('reports a job the platform runs, from its own heartbeat', async () => {
    // bpm.outbox polls every second and beats every 10 s: its first beat may still be coming
    // when this test runs first.
    await expect
      .poll(async () => (await heartbeats()).get('bpm.outbox')?.status, { timeout: 25_000 })
      .toBe('ok');
    const job = (await heartbeats()).get('bpm.outbox');
    expect(job).toMatchObject({ status: 'ok', interval_seconds: 10 });
    expect(Date.parse(job.last_run_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('GET /api/v1/monitor/metrics/trends', () => {
  const trends = async (range: string) => {
    const res = await platform.call('GET', `/api/v1/monitor/metrics/trends?range=${range}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const seriesOf = (data: any, service: string) =>
    data.series.find((s: any) => s.metric === 'db.pool_waiting' && s.service === service);
  /** The start of the bucket `back` buckets before the current one, in seconds. */
  const bucketStart = (size: number, back: number) =>
    (Math.floor(Date.now() / 1000 / size) - back) * size;
  const at = (seconds: number) => new Date(seconds * 1000);
  const iso = (seconds: number) => at(seconds).toISOString();

  it('aggregates the last hour into 1-minute buckets, avg and max, nothing older', async () => {
    const service = uniq('svc');
    const t = bucketStart(60, 10);
    await insertSamples(platform, [
      { metric: 'db.pool_waiting', service, value: 1, at: at(t + 5) },
      { metric: 'db.pool_waiting', service, value: 3, at: at(t + 50) },
      { metric: 'db.pool_waiting', service, value: 10, at: at(t + 60) },
      { metric: 'db.pool_waiting', service, value: 99, at: ago(3700) },
    ]);
    const data = await trends('1h');
    expect(data.bucket_seconds).toBe(60);
    expect(seriesOf(data, service).points).toEqual([
      { at: iso(t), avg: 2, max: 3, samples: 2 },
      { at: iso(t + 60), avg: 10, max: 10, samples: 1 },
    ]);
  });

  it('aggregates the last day into 15-minute buckets', async () => {
    const service = uniq('svc');
    const t = bucketStart(900, 3);
    await insertSamples(platform, [
      { metric: 'db.pool_waiting', service, value: 4, at: at(t + 10) },
      { metric: 'db.pool_waiting', service, value: 8, at: at(t + 899) },
      { metric: 'db.pool_waiting', service, value: 1, at: at(t + 900) },
      { metric: 'db.pool_waiting', service, value: 50, at: ago(25 * 3600) },
    ]);
    const data = await trends('24h');
    expect(data.bucket_seconds).toBe(900);
    expect(seriesOf(data, service).points).toEqual([
      { at: iso(t), avg: 6, max: 8, samples: 2 },
      { at: iso(t + 900), avg: 1, max: 1, samples: 1 },
    ]);
  });

  it('aggregates the last week into 2-hour buckets', async () => {
    const service = uniq('svc');
    const t = bucketStart(7200, 30);
    await insertSamples(platform, [
      { metric: 'db.pool_waiting', service, value: 1, at: at(t + 1) },
      { metric: 'db.pool_waiting', service, value: 5, at: at(t + 7000) },
      { metric: 'db.pool_waiting', service, value: 70, at: ago(8 * 24 * 3600) },
    ]);
    const data = await trends('7d');
    expect(data.bucket_seconds).toBe(7200);
    expect(seriesOf(data, service).points).toEqual([{ at: iso(t), avg: 3, max: 5, samples: 2 }]);
  });

  it('keeps a platform-wide metric apart from the services\u2019 (service null)', async () => {
    const t = bucketStart(60, 20);
    await insertSamples(platform, [{ metric: 'cache.latency_ms', value: 0.5, at: at(t + 1) }]);
    const data = await platform.call(
      'GET',
      '/api/v1/monitor/metrics/trends?range=1h&metric=cache.latency_ms',
      { token: admin },
    );
    expect(data.status).toBe(200);
    expect(data.body.data.series.map((s: any) => [s.metric, s.service])).toEqual([
      ['cache.latency_ms', null],
    ]);
  });

  it.each(['', 'range=2h', 'range=1H', 'range=1h&range=7d', 'range=1h&metric=nope'])(
    'refuses the query %j with 40000',
    async (query) => {
      const res = await platform.call('GET', `/api/v1/monitor/metrics/trends?${query}`, {
        token: admin,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(40000);
    },
  );
});

describe('who may monitor', () => {
  const paths = [
    ['monitor:service:list', '/api/v1/monitor/services'],
    ['monitor:job:list', '/api/v1/monitor/jobs/heartbeats'],
    ['monitor:metric:list', '/api/v1/monitor/metrics/trends?range=1h'],
  ] as const;

  it('refuses a tenant\u2019s user holding the codes but not a platform administrator', async () => {
    const user = await createUserWith(
      platform,
      paths.map(([code]) => code),
    );
    for (const [, path] of paths) {
      const res = await platform.call('GET', path, { token: user.token });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(40300);
    }
  });

  it('gives a platform administrator what their codes open, and nothing else', async () => {
    const user = await platformAdminWith(platform, ['monitor:job:list']);
    const statuses = await Promise.all(
      paths.map(
        async ([, path]) => (await platform.call('GET', path, { token: user.token })).status,
      ),
    );
    expect(statuses).toEqual([403, 200, 403]);
  });

  it('guards each route with its code: a platform administrator holding every other is refused', async () => {
    for (const permission of MONITOR_PERMISSIONS) {
      const others = MONITOR_PERMISSIONS.map((p) => p.code).filter((c) => c !== permission.code);
      const user = await platformAdminWith(platform, others);
      for (const route of permission.routes) {
        const [method, path] = route.split(' ') as [string, string];
        const res = await platform.call(method, path.replace(':id', '1'), {
          token: user.token,
          ...(method === 'POST' || method === 'PUT' ? { body: {} } : {}),
        });
        expect([route, res.status, res.body.message]).toEqual([
          route,
          403,
          `permission ${permission.code} required`,
        ]);
      }
    }
  });

  it('refuses an anonymous caller', async () => {
    const res = await platform.call('GET', '/api/v1/monitor/services');
    expect(res.status).toBe(401);
  });
});

describe('the metric sampler\u2019s replicas', () => {
  it('writes one round per half interval whatever the replicas racing for it', async () => {
    const db = platform.kernel.database.db.withTables<MonitorTables>();
    const replica = () =>
      new MetricSampler({
        db,
        pingDatabase: () => sql`SELECT 1`.execute(db),
        pingCache: async () => undefined,
        services: [],
        serviceUrl: () => 'http://127.0.0.1:1',
        intervalMs: 60_000,
        logger: pino({ level: 'silent' }),
      });
    const replicas = [replica(), replica(), replica()];
    const rounds = await Promise.all(replicas.map((r) => r.round()));
    for (const r of replicas) r.close();
    expect(rounds.filter((at) => at !== undefined)).toHaveLength(1);
  });
});
