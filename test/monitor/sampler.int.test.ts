import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { until } from '../helpers/until.js';
import { insertSamples } from './monitor-fixtures.js';
import { testCertificates } from '../system/certificate-fixtures.js';

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

  it('raises an alert in its rounds, hands the notice to the inbox port once, and resolves it', async () => {
    const me = (await platform.call('GET', '/api/v1/me', { token: admin })).body.data;
    const name = uniq('memory');
    const created = await platform.call('POST', '/api/v1/monitor/alert-rules', {
      token: admin,
      body: {
        name,
        metric: 'server.memory_percent',
        operator: 'gt',
        threshold: -1,
        duration_seconds: 0,
        recipient_user_ids: [me.id],
      },
    });
    expect(created.status).toBe(200);
    const alertOf = async () => {
      const res = await platform.call(
        'GET',
        `/api/v1/monitor/alerts?rule_id=${created.body.data.id}`,
        { token: admin },
      );
      return res.body.data.list[0];
    };
    const fired = await until('the rule fires', async () => {
      const alert = await alertOf();
      return alert?.notified_at ? alert : undefined;
    });
    expect(fired).toMatchObject({ status: 'firing', metric: 'server.memory_percent' });
    expect(fired.value).toBeGreaterThan(0);
    await platform.call('PUT', `/api/v1/monitor/alert-rules/${created.body.data.id}`, {
      token: admin,
      body: { threshold: 1000 },
    });
    const resolved = await until('the rule resolves', async () => {
      const alert = await alertOf();
      return alert?.status === 'resolved' ? alert : undefined;
    });
    expect(resolved.id).toBe(fired.id);
    // Several rounds held it firing: one notice, in the recipient's inbox (the system service).
    const inbox = await platform.call('GET', '/api/v1/inbox?page_size=100', { token: admin });
    const notices = inbox.body.data.list.filter((n: { title: string }) =>
      n.title.includes(`Alert: ${name}`),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ category: 'monitor_alert', read_at: null });
  });

  it('warns of a certificate the system service holds that expires within 30 days, in the inbox', async () => {
    const certs = testCertificates();
    try {
      const { certificate, privateKey } = certs.selfSigned(10);
      const name = uniq('edge');
      const uploaded = await platform.call('POST', '/api/v1/system/certificates', {
        token: admin,
        body: { name, certificate, private_key: privateKey },
      });
      expect(uploaded.status).toBe(200);
      const alert = await until('the expiry alert', async () => {
        const res = await platform.call(
          'GET',
          '/api/v1/monitor/alerts?kind=certificate_expiry&status=firing&page_size=100',
          { token: admin },
        );
        return res.body.data.list.find(
          (a: { notified_at: string | null; certificate_id: number | null }) =>
            a.notified_at && a.certificate_id === uploaded.body.data.id,
        );
      });
      expect(alert.value).toBeLessThanOrEqual(10);
      const inbox = await platform.call('GET', '/api/v1/inbox?page_size=100', { token: admin });
      expect(
        inbox.body.data.list.filter(
          (n: { category: string; title: string; body: string }) =>
            n.category === 'certificate_expiry' && `${n.title} ${n.body}`.includes(name),
        ),
      ).toHaveLength(1);
    } finally {
      certs.close();
    }
  });
});
