import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluator } from '../../src/services/monitor/alerts/alert-evaluator.js';
import type {
  ExpiringCertificate,
  InboxDelivery,
} from '../../src/services/monitor/monitor.ports.js';
import type { MonitorTables } from '../../src/services/monitor/monitor.tables.js';
import { createUserWith } from '../bpm/fixtures.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { insertSamples, platformAdminWith } from './monitor-fixtures.js';

// Alert rules through the API; their evaluation driven here, as the sampler drives it after a
// round, over samples written at known times, with an inbox and certificates of our own. The
// platform's sampler is held off (1 h interval).

let platform: TestPlatform;
let admin: string;
let adminId: number;

beforeAll(async () => {
  platform = await startTestPlatform({ MONITOR_SAMPLE_INTERVAL: '1h' });
  admin = await platform.adminToken();
  adminId = (await platform.call('GET', '/api/v1/me', { token: admin })).body.data.id;
});
afterAll(() => platform?.close());

type Notice = Parameters<InboxDelivery['deliver']>[0];

function evaluator(o: { certificates?: ExpiringCertificate[]; failInbox?: boolean } = {}) {
  const notices: Notice[] = [];
  const evaluation = new AlertEvaluator({
    db: platform.kernel.database.db.withTables<MonitorTables>(),
    logger: pino({ level: 'silent' }),
    ports: {
      inbox: {
        async deliver(notice) {
          if (o.failInbox) throw new Error('inbox down');
          notices.push(notice);
        },
      },
      certificates: { expiringWithin: async () => o.certificates ?? [] },
      platformAdmins: async () => [{ tenantId: 1, userIds: [adminId] }],
    },
  });
  return { evaluate: (at: Date) => evaluation.evaluate(at), notices };
}

const rule = (overrides: Record<string, unknown> = {}) => ({
  name: uniq('rule'),
  metric: 'service.error_rate',
  service: 'files',
  operator: 'gt',
  threshold: 0.5,
  duration_seconds: 120,
  recipient_user_ids: [adminId],
  ...overrides,
});

async function createRule(body: Record<string, unknown>) {
  const res = await platform.call('POST', '/api/v1/monitor/alert-rules', { token: admin, body });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function alertsOf(ruleId: number) {
  const res = await platform.call('GET', `/api/v1/monitor/alerts?rule_id=${ruleId}`, {
    token: admin,
  });
  expect(res.status).toBe(200);
  return res.body.data.list;
}

/** A base time, and times relative to it, in seconds. */
const base = Date.now() - 3600_000;
const t = (seconds: number) => new Date(base + seconds * 1000);

describe('alert rules: CRUD', () => {
  it('creates, reads, changes and deletes a rule, each change in the business audit', async () => {
    const created = await createRule(rule({ enabled: false }));
    expect(created).toMatchObject({
      metric: 'service.error_rate',
      service: 'files',
      operator: 'gt',
      threshold: 0.5,
      duration_seconds: 120,
      recipient_user_ids: [adminId],
      enabled: false,
      created_by: adminId,
    });
    const got = await platform.call('GET', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
    });
    expect(got.body.data).toEqual(created);
    const listed = await platform.call('GET', '/api/v1/monitor/alert-rules?page_size=100', {
      token: admin,
    });
    expect(listed.body.data.list.map((r: any) => r.id)).toContain(created.id);
    const changed = await platform.call('PUT', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
      body: { threshold: 0.25, enabled: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ threshold: 0.25, enabled: true, name: created.name });
    const removed = await platform.call('DELETE', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
    });
    expect(removed.status).toBe(200);
    const gone = await platform.call('GET', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
    });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(40400);
    const audit = await platform.call(
      'GET',
      `/api/v1/logs/audit?target_type=alert_rule&target_id=${created.id}`,
      { token: admin },
    );
    expect(audit.body.data.list.map((e: any) => e.action).sort()).toEqual([
      'create',
      'delete',
      'update',
    ]);
  });

  it.each([
    ['an unknown metric', { metric: 'server.disk' }, 'metric'],
    ['a per-service metric without its service', { service: null }, 'service'],
    ['an unknown service', { service: 'nope' }, 'service'],
    ['a service on a platform-wide metric', { metric: 'db.latency_ms' }, 'service'],
    ['an unknown operator', { operator: 'eq' }, 'operator'],
    ['a threshold that is not a number', { threshold: '1' }, 'threshold'],
    ['a negative duration', { duration_seconds: -1 }, 'duration_seconds'],
    ['a duration beyond the samples kept', { duration_seconds: 8 * 24 * 3600 }, 'duration_seconds'],
    ['a fractional duration', { duration_seconds: 1.5 }, 'duration_seconds'],
    ['an unknown recipient', { recipient_user_ids: [999_999_999] }, 'recipient_user_ids'],
    ['recipients that are not ids', { recipient_user_ids: ['x'] }, 'recipient_user_ids.0'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a name too long', { name: 'x'.repeat(65) }, 'name'],
    ['enabled not a boolean', { enabled: 'yes' }, 'enabled'],
  ])('refuses %s with 40001 and creates nothing', async (_what, overrides, field) => {
    const name = uniq('bad');
    const res = await platform.call('POST', '/api/v1/monitor/alert-rules', {
      token: admin,
      body: rule({ name, ...overrides }),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields.map((f: any) => f.field)).toContain(field);
    const listed = await platform.call('GET', '/api/v1/monitor/alert-rules?page_size=100', {
      token: admin,
    });
    expect(listed.body.data.list.map((r: any) => r.name)).not.toContain(name);
  });

  it('refuses a recipient of another tenant as unknown', async () => {
    const code = uniq('t').toLowerCase();
    const username = uniq('boss');
    const tenant = await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code, name: 'Other', admin_username: username, admin_password: 'Other-Passw0rd!' },
    });
    expect(tenant.status).toBe(200);
    const other = await platform.login(username, 'Other-Passw0rd!', code);
    const name = uniq('foreign');
    const res = await platform.call('POST', '/api/v1/monitor/alert-rules', {
      token: admin,
      body: rule({ name, recipient_user_ids: [other.user.id] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({ field: 'recipient_user_ids', rule: 'option' }),
    ]);
  });

  it('refuses a change that leaves the rule inconsistent, and changes nothing', async () => {
    const created = await createRule(rule({ enabled: false }));
    const res = await platform.call('PUT', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
      body: { metric: 'cache.latency_ms' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.fields.map((f: any) => f.field)).toEqual(['service']);
    const got = await platform.call('GET', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
    });
    expect(got.body.data).toEqual(created);
  });

  it('answers 404 for an unknown rule on read, change and delete', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await platform.call(method, '/api/v1/monitor/alert-rules/987654321', {
        token: admin,
        ...(method === 'PUT' && { body: { threshold: 1 } }),
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(40400);
    }
  });

  it('refuses a platform administrator without the code, and a tenant user with it', async () => {
    const reader = await platformAdminWith(platform, ['monitor:alert:list']);
    const post = await platform.call('POST', '/api/v1/monitor/alert-rules', {
      token: reader.token,
      body: rule(),
    });
    expect(post.status).toBe(403);
    const list = await platform.call('GET', '/api/v1/monitor/alerts', { token: reader.token });
    expect(list.status).toBe(200);
    const tenantUser = await createUserWith(platform, ['monitor:alert:list']);
    const refused = await platform.call('GET', '/api/v1/monitor/alerts', {
      token: tenantUser.token,
    });
    expect(refused.status).toBe(403);
  });

  it('refuses a bad alerts filter with 40000', async () => {
    for (const query of ['status=open', 'kind=x', 'rule_id=abc', 'page=0']) {
      const res = await platform.call('GET', `/api/v1/monitor/alerts?${query}`, { token: admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(40000);
    }
  });
});

describe('alert evaluation', () => {
  it('raises an alert once the threshold held for the duration, notifies once, then resolves', async () => {
    const created = await createRule(rule({ service: 'files' }));
    const { evaluate, notices } = evaluator();
    const sample = (at: number, value: number) =>
      insertSamples(platform, [
        { metric: 'service.error_rate', service: 'files', value, at: t(at) },
      ]);
    await sample(0, 0.1);
    await sample(60, 0.9);
    await sample(120, 0.8);
    await evaluate(t(120));
    // Breaching for 60 s of the 120 required: nothing yet.
    expect(await alertsOf(created.id)).toEqual([]);
    await sample(180, 0.7);
    await evaluate(t(180));
    const [fired] = await alertsOf(created.id);
    expect(fired).toMatchObject({
      kind: 'rule',
      rule_id: created.id,
      title: created.name,
      metric: 'service.error_rate',
      service: 'files',
      status: 'firing',
      value: 0.7,
      fired_at: t(180).toISOString(),
      resolved_at: null,
    });
    const mine = () => notices.filter((n) => n.title === `Alert: ${created.name}`);
    expect(mine()).toEqual([
      expect.objectContaining({
        tenantId: 1,
        userIds: [adminId],
        category: 'monitor_alert',
        title: `Alert: ${created.name}`,
        link: '/monitor?tab=alerts',
      }),
    ]);
    // Still breaching: the same alert, no second notice.
    await sample(240, 0.95);
    await evaluate(t(240));
    expect(await alertsOf(created.id)).toHaveLength(1);
    expect(mine()).toHaveLength(1);
    // The condition stops holding: resolved, with the value that ended it.
    await sample(300, 0.2);
    await evaluate(t(300));
    const [resolved] = await alertsOf(created.id);
    expect(resolved).toMatchObject({
      id: fired.id,
      status: 'resolved',
      value: 0.2,
      resolved_at: t(300).toISOString(),
    });
    expect(mine()).toHaveLength(1);
    const firing = await platform.call('GET', '/api/v1/monitor/alerts?status=firing', {
      token: admin,
    });
    expect(firing.body.data.list.map((a: any) => a.id)).not.toContain(fired.id);
  });

  it('fires a below-threshold rule at once with a zero duration, and a new alert after resolving', async () => {
    const created = await createRule(
      rule({
        metric: 'service.request_rate',
        service: 'audit',
        operator: 'lt',
        threshold: 1,
        duration_seconds: 0,
      }),
    );
    const { evaluate, notices } = evaluator();
    const sample = (at: number, value: number) =>
      insertSamples(platform, [
        { metric: 'service.request_rate', service: 'audit', value, at: t(at) },
      ]);
    await sample(0, 0.5);
    await evaluate(t(0));
    await sample(60, 3);
    await evaluate(t(60));
    await sample(120, 0.1);
    await evaluate(t(120));
    const alerts = await alertsOf(created.id);
    expect(alerts.map((a: any) => [a.status, a.value])).toEqual([
      ['firing', 0.1],
      ['resolved', 3],
    ]);
    expect(notices.filter((n) => n.title === `Alert: ${created.name}`)).toHaveLength(2);
  });

  it('resolves the alert of a rule that is disabled', async () => {
    const created = await createRule(
      rule({ metric: 'service.error_rate', service: 'bpm', duration_seconds: 0 }),
    );
    const { evaluate } = evaluator();
    await insertSamples(platform, [
      { metric: 'service.error_rate', service: 'bpm', value: 1, at: t(0) },
    ]);
    await evaluate(t(0));
    expect((await alertsOf(created.id))[0].status).toBe('firing');
    await platform.call('PUT', `/api/v1/monitor/alert-rules/${created.id}`, {
      token: admin,
      body: { enabled: false },
    });
    expect((await alertsOf(created.id))[0].status).toBe('resolved');
    await evaluate(t(0));
    expect(await alertsOf(created.id)).toHaveLength(1);
  });

  it('tries a notice again next round when the inbox fails, and sends it once', async () => {
    const created = await createRule(
      rule({ metric: 'service.error_rate', service: 'identity', duration_seconds: 0 }),
    );
    await insertSamples(platform, [
      { metric: 'service.error_rate', service: 'identity', value: 1, at: t(0) },
    ]);
    await evaluator({ failInbox: true }).evaluate(t(0));
    expect((await alertsOf(created.id))[0]).toMatchObject({ status: 'firing', notified_at: null });
    const retry = evaluator();
    await retry.evaluate(t(0));
    await retry.evaluate(t(0));
    expect(retry.notices.filter((n) => n.title === `Alert: ${created.name}`)).toHaveLength(1);
    expect((await alertsOf(created.id))[0].notified_at).not.toBeNull();
  });
});

describe('certificate expiry', () => {
  const certificate = (id: number, days: number): ExpiringCertificate => ({
    id,
    name: `edge-${id}`,
    subject: `CN=edge-${id}.example.com`,
    not_after: new Date(Date.now() + days * 24 * 3600 * 1000).toISOString(),
  });
  const certAlerts = async (id: number) => {
    const res = await platform.call(
      'GET',
      '/api/v1/monitor/alerts?kind=certificate_expiry&page_size=100',
      {
        token: admin,
      },
    );
    return res.body.data.list.filter((a: any) => a.certificate_id === id);
  };

  it('raises an alert for a certificate expiring within 30 days, tells the platform admins once, resolves on renewal', async () => {
    const id = 700_000 + Math.floor(Math.random() * 100_000);
    const expiring = evaluator({ certificates: [certificate(id, 12)] });
    await expiring.evaluate(new Date());
    await expiring.evaluate(new Date());
    const [alert] = await certAlerts(id);
    expect(alert).toMatchObject({ kind: 'certificate_expiry', status: 'firing', rule_id: null });
    expect(alert.value).toBeGreaterThanOrEqual(11);
    expect(alert.value).toBeLessThanOrEqual(12);
    expect(alert.title).toContain(`edge-${id}`);
    const mine = expiring.notices.filter((n) => n.title === alert.title);
    expect(mine).toEqual([
      expect.objectContaining({
        tenantId: 1,
        userIds: [adminId],
        category: 'certificate_expiry',
      }),
    ]);
    // Renewed: no longer among the expiring ones.
    await evaluator({ certificates: [] }).evaluate(new Date());
    expect((await certAlerts(id)).map((a: any) => a.status)).toEqual(['resolved']);
  });

  it('keeps a certificate alert firing while the certificates cannot be read', async () => {
    const id = 800_000 + Math.floor(Math.random() * 100_000);
    await evaluator({ certificates: [certificate(id, 3)] }).evaluate(new Date());
    const broken = new AlertEvaluator({
      db: platform.kernel.database.db.withTables<MonitorTables>(),
      logger: pino({ level: 'silent' }),
      ports: {
        inbox: { deliver: async () => undefined },
        certificates: {
          expiringWithin: async () => {
            throw new Error('system service down');
          },
        },
        platformAdmins: async () => [],
      },
    });
    await broken.evaluate(new Date());
    expect((await certAlerts(id)).map((a: any) => a.status)).toEqual(['firing']);
  });
});
