import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  expect,
  request as requests,
  test,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { apiLogin, call, createRole, createUser, uniq } from './api';
import { auditThemes } from './axe';
import { OwnPlatform } from './monitor-platform';
import { MONITOR_PORT } from './ports';
import { choose, pickPerson, signedIn, submitDialog, type Person } from './session';

/**
 * The monitor page (`/monitor`): the services' health and the jobs' heartbeats, trends over a
 * range held in the URL, alert rules made and changed through the page, alerts, and the edge
 * certificates. A stopped job turns stale on the page: a platform of the spec's own runs the
 * audit log retention every second, is stopped, and comes back with that job switched off, so
 * its last heartbeat ages past twice its period. The same platform samples every 2 s, so its
 * trends have points and a certificate expiring in 10 days raises its alert. Every tab passes
 * axe in the light and the dark theme, reads in Simplified Chinese and fits a phone; a user
 * without the codes gets the 403 page.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };

/** The row of the table `testId` that holds `text`. */
const row = (page: Page, testId: string, text: string) =>
  page.getByTestId(testId).locator('.ant-table-row').filter({ hasText: text });

/** A self-signed certificate for `host` valid for `days` days, and its key (PEM). */
function selfSigned(dir: string, host: string, days: number) {
  const cert = join(dir, `${host}.crt`);
  const key = join(dir, `${host}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      String(days),
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host}`,
    ],
    { stdio: 'pipe' },
  );
  return Promise.all([readFile(cert, 'utf8'), readFile(key, 'utf8')]).then(([c, k]) => ({
    certificate: c,
    private_key: k,
  }));
}

test('the admin finds the monitor in the navigation: services ready, heartbeats, trend ranges in the URL', async ({
  browser,
}) => {
  const page = await signedIn(browser, admin, '/');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('menuitem', { name: 'Monitor' }).click();
  await expect(page).toHaveURL(/\/monitor$/);
  await expect(page.getByRole('heading', { name: 'Monitor', level: 1 })).toBeVisible();

  const services = page.getByTestId('services-health');
  await expect(services.locator('.ant-table-row').first()).toBeVisible();
  const count = await services.locator('.ant-table-row').count();
  expect(count).toBeGreaterThanOrEqual(7);
  await expect(services.locator('[data-status="ready"]')).toHaveCount(count);
  await expect(services).toContainText(`All ${count} services are ready.`);
  for (const name of ['auth', 'identity', 'bpm', 'monitor']) {
    await expect(row(page, 'services-health', name).first()).toContainText('Ready');
  }
  // Refreshed on demand (and by itself every 15 s): the time it was answered moves on.
  const updated = services.getByText(/^Updated /);
  const before = await updated.textContent();
  await page.waitForTimeout(1100);
  await services.getByRole('button', { name: "Refresh Services' health" }).click();
  await expect(updated).not.toHaveText(before ?? '');

  const jobs = page.getByTestId('job-heartbeats');
  await expect(row(page, 'job-heartbeats', 'monitor.metric_sampler')).toBeVisible();
  await expect(row(page, 'job-heartbeats', 'audit.chain_checkpoint')).toBeVisible();
  await expect(jobs).toContainText(/every \d+ (second|minute|hour|day)s?/);

  // The trends' range is in the URL: a link reproduces the view.
  await page.getByRole('tab', { name: 'Trends' }).click();
  await expect(page).toHaveURL(/\/monitor\?tab=trends$/);
  const range = page.getByRole('radiogroup', { name: 'Range' });
  await range.getByText('Last 24 hours').click();
  await expect(page).toHaveURL(/tab=trends&range=24h/);
  await expect(page.getByTestId('trend-span')).toContainText('a point per 15 minutes');
  await range.getByText('Last 7 days').click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByTestId('trend-span')).toContainText('a point per 2 hours');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Last 7 days' })).toBeChecked();
  await range.getByText('Last hour').click();
  await expect(page).not.toHaveURL(/range=/);
  await expect(page.getByTestId('trend-span')).toContainText('a point per 1 minute');
  await page.context().close();
});

test('an alert rule is created, changed and deleted through the page', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const oncall = await createUser(request, token, 'Oncall');
  const name = uniq('Identity errors ');
  const page = await signedIn(browser, admin, '/monitor?tab=rules');
  await page.getByRole('button', { name: 'New alert rule' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await choose(page, 'Metric', 'Error rate per service');
  // A per-service metric needs its service: said on the field before anything is sent.
  await dialog.getByLabel('Threshold').fill('5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Service is required')).toBeVisible();
  await choose(page, 'Service', 'identity');
  await dialog.getByLabel('Held for').fill('120');
  await expect(dialog.getByText('must hold for 2 minutes')).toBeVisible();
  await pickPerson(page, dialog.getByRole('combobox', { name: 'Recipients' }), oncall);
  await submitDialog(page, 'Save');

  const rule = row(page, 'alert-rules-table', name);
  await expect(rule).toContainText('Error rate per service');
  await expect(rule).toContainText('identity');
  await expect(rule).toContainText('> 5 % for 2 minutes');
  await expect(rule).toContainText('Oncall');
  await expect(rule.locator('.ant-tag')).toHaveText('On');

  await rule.getByRole('button', { name: 'Edit' }).click();
  await expect(dialog.getByLabel('Threshold')).toHaveValue('5');
  await dialog.getByLabel('Threshold').fill('12.5');
  await dialog.getByRole('switch', { name: 'Enabled' }).click();
  await submitDialog(page, 'Save');
  await expect(rule).toContainText('> 12.5 % for 2 minutes');
  await expect(rule.locator('.ant-tag')).toHaveText('Off');
  const stored = await call<{ list: { name: string; threshold: number; enabled: boolean }[] }>(
    request,
    token,
    'GET',
    '/api/v1/monitor/alert-rules?page_size=100',
  );
  expect(stored.list.find((r) => r.name === name)).toMatchObject({
    threshold: 0.125,
    enabled: false,
  });

  // Its alerts are a link away, filtered by the rule in the URL.
  await rule.getByRole('link', { name: 'Alerts' }).click();
  await expect(page).toHaveURL(/tab=alerts&rule_id=\d+/);
  await expect(page.getByTestId('rule-filter')).toBeVisible();
  await expect(page.getByTestId('alerts-table')).toContainText('No alert matches these filters');
  await page.goBack();

  await rule.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tooltip')).toContainText(`Delete the alert rule ${name}?`);
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Alert rule ${name} was deleted.`)).toBeVisible();
  await expect(rule).toHaveCount(0);
  await page.context().close();
});

test('a user without the monitor codes, or holding them outside the platform administrators, gets the 403 page', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const plain = await createUser(request, token, 'Plain');
  const page = await signedIn(browser, plain);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('menuitem', { name: /To do/ })).toBeVisible();
  await expect(nav.getByRole('menuitem', { name: 'Monitor' })).toHaveCount(0);
  await page.goto('/monitor');
  await expect(page.getByTestId('forbidden-page')).toBeVisible();
  await page.context().close();

  // The codes open nothing to a tenant's user: the monitor is the platform administrators'.
  const role = await createRole(request, token, ['monitor:service:list', 'monitor:job:list']);
  const holder = await createUser(request, token, 'Holder', [role]);
  const other = await signedIn(browser, holder, '/monitor');
  await expect(other.getByTestId('forbidden-page')).toBeVisible();
  await other.context().close();
});

test.describe('on a platform of its own', () => {
  let own: OwnPlatform;
  let api: APIRequestContext;
  let certs: string;
  /** The settings both starts share: a sampler round every 2 s, so trends and alerts come quickly. */
  const SAMPLER = { MONITOR_SAMPLE_INTERVAL: '2s' };

  test.beforeAll(async () => {
    own = await OwnPlatform.create(MONITOR_PORT);
    api = await requests.newContext({ baseURL: own.url });
    certs = await mkdtemp(join(tmpdir(), 'approva-monitor-certs-'));
  });

  test.afterAll(async () => {
    await api?.dispose();
    await own?.remove();
    if (certs) await rm(certs, { recursive: true, force: true });
  });

  const heartbeat = async (name: string) => {
    const { token } = await apiLogin(api, admin.username, admin.password);
    const beats = await call<{ name: string; status: string; last_run_at: string | null }[]>(
      api,
      token,
      'GET',
      '/api/v1/monitor/jobs/heartbeats',
    );
    return beats.find((b) => b.name === name);
  };

  test('a stopped job turns stale on the monitor', async ({ browser }) => {
    test.setTimeout(240_000);
    // The audit log retention every second: its round reports its own heartbeat, period 1 s.
    await own.start({ ...SAMPLER, AUDIT_LOG_RETENTION_DAYS: '30', AUDIT_RETENTION_INTERVAL: '1s' });
    await expect
      .poll(async () => (await heartbeat('audit.log_retention'))?.status, { timeout: 30_000 })
      .toBe('ok');

    const page = await signedIn(browser, admin, '/monitor', own.url);
    const retention = row(page, 'job-heartbeats', 'audit.log_retention');
    await expect(retention).toContainText('OK');
    await expect(retention).toContainText(/every \d+ seconds?/);
    // A declared job with an hourly round has not reported yet: said so, and stale.
    const sweep = row(page, 'job-heartbeats', 'files.orphan_sweep');
    await expect(sweep).toContainText('Never reported');
    await expect(sweep.locator('[data-status="stale"]')).toHaveText('Stale');

    // Stopped, and back with the retention switched off: nothing runs it any more.
    await own.stop();
    await own.start({ ...SAMPLER, AUDIT_LOG_RETENTION_DAYS: '0' });
    await page.reload();
    await expect(retention).toBeVisible();
    // Past twice its period without a report, the page shows it stale, in words and with an icon.
    await expect(async () => {
      await page
        .getByTestId('job-heartbeats')
        .getByRole('button', { name: 'Refresh Job heartbeats' })
        .click();
      await expect(retention.locator('[data-status="stale"]')).toHaveText('Stale', {
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    await expect(retention.locator('[data-status="stale"] .anticon')).toBeVisible();
    await expect(retention).toContainText(/seconds? ago|minutes? ago/);
    // The stale job comes first, and the summary and the tab say something needs attention.
    await expect(page.getByTestId('job-heartbeats')).toContainText(
      /\d+ of \d+ jobs need attention/,
    );
    await expect(page.getByRole('tab', { name: /Health \d+ to check/ })).toBeVisible();
    expect((await heartbeat('audit.log_retention'))?.status).toBe('stale');
    await page.context().close();
  });

  test('the trends plot the samples, a chart or its table per metric', async ({ browser }) => {
    const page = await signedIn(browser, admin, '/monitor?tab=trends', own.url);
    const cpu = page.getByTestId('trend-server.cpu_percent');
    await expect(async () => {
      await page.reload();
      await expect(cpu.getByTestId('chart-server.cpu_percent')).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await expect(cpu.locator('svg').first()).toBeVisible();
    await cpu.getByText('Table', { exact: true }).click();
    await expect(cpu.locator('.ant-table-row').first()).toBeVisible();
    await expect(cpu.locator('thead')).toContainText('Average');
    await expect(cpu.locator('thead')).toContainText('Maximum');
    // PGlite has no pool: that metric's card says it has no samples.
    await expect(page.getByTestId('trend-db.pool_in_use')).toContainText(
      'No samples of this metric in the range',
    );
    await page.context().close();
  });

  test('a certificate expiring in 10 days is highlighted, raises an alert that links to it, and is deleted after a confirmation', async ({
    browser,
  }) => {
    const host = `${uniq('soon')}.example.test`;
    const soon = await selfSigned(certs, host, 10);
    const other = await selfSigned(certs, `other-${host}`, 10);
    const page = await signedIn(browser, admin, '/monitor?tab=certificates', own.url);
    await expect(page.getByTestId('certificates-table')).toBeVisible();
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(host);
    await dialog.getByLabel('Certificate (PEM)').fill(soon.certificate);
    // Another certificate's key is refused on its field, and nothing is stored.
    await dialog.getByLabel('Private key (PEM)').fill(other.private_key);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const keyField = dialog.locator('.ant-form-item').filter({ hasText: 'Private key (PEM)' });
    await expect(keyField.locator('.ant-form-item-explain-error')).toBeVisible();
    await dialog.getByLabel('Private key (PEM)').fill(soon.private_key);
    await submitDialog(page, 'Save');

    const cert = row(page, 'certificates-table', host);
    await expect(cert).toContainText(`CN=${host}`);
    await expect(cert).toContainText(`DNS:${host}`);
    await expect(cert.locator('[data-expiry="soon"]')).toHaveText(/Expires in (9|10) days/);

    // The sampler's round checks the certificates: the alert fires and leads back here.
    await page.goto(`${own.url}/monitor?tab=alerts&kind=certificate_expiry`);
    const alert = page
      .getByTestId('alerts-table')
      .locator('.ant-table-row')
      .filter({ hasText: host });
    await expect(async () => {
      await page.reload();
      await expect(alert).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await expect(alert).toContainText('Firing');
    await expect(alert).toContainText('Certificate expiry');
    await expect(alert).toContainText(/(9|10) days left/);
    await expect(page.getByRole('tab', { name: /Alerts \d+ firing/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: /Certificates \d+ expiring/ })).toBeVisible();
    await alert.getByRole('link', { name: 'See the certificates' }).click();
    await expect(page).toHaveURL(/\/monitor\?tab=certificates$/);
    await expect(cert.locator('[data-expiry="soon"]')).toBeVisible();

    // Every platform administrator is told in the inbox; the notice opens the alerts.
    await page.getByTestId('inbox-bell').click();
    const notice = page
      .getByRole('dialog', { name: 'Notifications' })
      .locator('[data-testid^="inbox-notice-"]')
      .filter({ hasText: host });
    await expect(async () => {
      if (!(await notice.isVisible())) {
        await page.keyboard.press('Escape');
        await page.getByTestId('inbox-bell').click();
      }
      await expect(notice).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await notice.getByRole('button', { name: 'Open' }).click();
    await expect(page).toHaveURL(/\/monitor\?tab=alerts$/);
    await expect(alert).toBeVisible();
    await page.getByRole('tab', { name: /Certificates/ }).click();

    await cert.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('tooltip')).toContainText(`Delete the certificate ${host}?`);
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Certificate ${host} was deleted.`)).toBeVisible();
    await expect(cert).toHaveCount(0);
    await page.context().close();
  });

  test('every monitor tab and dialog passes axe in the light and the dark theme', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const { token } = await apiLogin(api, admin.username, admin.password);
    const host = `${uniq('axe')}.example.test`;
    await call(api, token, 'POST', '/api/v1/system/certificates', {
      name: host,
      ...(await selfSigned(certs, host, 12)),
    });
    await call(api, token, 'POST', '/api/v1/monitor/alert-rules', {
      name: uniq('CPU '),
      metric: 'server.cpu_percent',
      operator: 'gt',
      threshold: 95,
      duration_seconds: 300,
      recipient_user_ids: [],
    });

    const page = await signedIn(browser, admin, '/monitor', own.url);
    const tabs: [string, string][] = [
      ['health', 'job-heartbeats'],
      ['trends', 'trend-server.cpu_percent'],
      ['rules', 'alert-rules-table'],
      ['alerts', 'alerts-table'],
      ['certificates', 'certificates-table'],
    ];
    for (const [tab, ready] of tabs) {
      await page.goto(`${own.url}/monitor?tab=${tab}`);
      await expect(page.getByTestId(ready)).toBeVisible();
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
      expect.soft(await auditThemes(page, 'main'), tab).toEqual([]);
    }
    await page.goto(`${own.url}/monitor?tab=trends`);
    const cpu = page.getByTestId('trend-server.cpu_percent');
    await cpu.getByText('Table', { exact: true }).click();
    await expect(cpu.locator('.ant-table-row').first()).toBeVisible();
    expect.soft(await auditThemes(page, 'main'), 'trend table').toEqual([]);

    await page.goto(`${own.url}/monitor?tab=rules`);
    await page.getByRole('button', { name: 'New alert rule' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect.soft(await auditThemes(page, '.ant-modal'), 'rule dialog').toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${own.url}/monitor?tab=certificates`);
    await expect(
      row(page, 'certificates-table', host).locator('[data-expiry="soon"]'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect.soft(await auditThemes(page, '.ant-modal'), 'upload dialog').toEqual([]);
    await page.context().close();
  });

  test('the monitor reads in Simplified Chinese and fits a phone', async ({ browser }) => {
    const page = await signedIn(browser, admin, '/monitor', own.url);
    await page.evaluate(() => localStorage.setItem('approva.language', 'zh-CN'));
    await page.goto(`${own.url}/monitor`);
    await expect(page.getByRole('heading', { name: '监控', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab', { name: /健康状况/ })).toBeVisible();
    await expect(page.getByTestId('services-health')).toContainText('服务健康状况');
    await expect(
      page.getByTestId('services-health').locator('[data-status="ready"]').first(),
    ).toHaveText('就绪');
    await expect(row(page, 'job-heartbeats', 'audit.log_retention')).toContainText('已停滞');
    await page.getByRole('tab', { name: /趋势/ }).click();
    await expect(page.getByRole('radiogroup', { name: '时间范围' })).toContainText('最近 24 小时');
    await page.getByRole('tab', { name: /证书/ }).click();
    await expect(page.getByRole('button', { name: '上传证书' })).toBeVisible();

    // At phone width nothing sticks out of the screen: wide tables scroll in their own box.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const tab of ['health', 'trends', 'rules', 'alerts', 'certificates']) {
      await page.goto(`${own.url}/monitor?tab=${tab}`);
      await page.waitForLoadState('networkidle');
      const widths = await page.evaluate(() => ({
        scroll: document.scrollingElement!.scrollWidth,
        inner: window.innerWidth,
      }));
      expect.soft(widths.scroll, tab).toBeLessThanOrEqual(widths.inner);
    }
    await page.context().close();
  });
});
