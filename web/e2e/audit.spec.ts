import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { apiLogin, call, uniq } from './api';
import { auditThemes } from './axe';
import { signedIn, type Person } from './session';

/**
 * The audit pages: a change made through the API shows up in the operation logs (with its
 * masked body) and in the business audit (with its before/after diff); both exports start with
 * their header row; the chain check's result shows; clearing names what goes; every page passes
 * axe in the light and the dark theme, and reads in Simplified Chinese.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };

/** The row of a list (not of a summary beside it) that holds `text`. */
const row = (page: Page, list: string, text: string) =>
  page.getByTestId(list).locator('.ant-table-row').filter({ hasText: text });

/** The first line of a downloaded CSV, without the UTF-8 byte-order mark. */
async function headerOf(page: Page, click: () => Promise<void>) {
  const download = page.waitForEvent('download');
  await click();
  const file = await (await download).path();
  const text = await readFile(file, 'utf8');
  return {
    name: (await download).suggestedFilename(),
    header: text.replace(/^\uFEFF/, '').split(/\r?\n/)[0],
  };
}

test('a change through the API shows in the operation logs and the business audit with its diff', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const code = uniq('aud');
  const role = await call<{ id: number }>(request, token, 'POST', '/api/v1/roles', {
    code,
    name: `Before ${code}`,
    permissions: [],
  });
  await call(request, token, 'PUT', `/api/v1/roles/${role.id}`, { name: `After ${code}` });

  // The operation log, filtered in the URL: the PUT with its masked request body.
  const path = `/api/v1/roles/${role.id}`;
  const page = await signedIn(browser, admin, `/audit/operations?keyword=${path}&method=PUT`);
  await expect(page.getByTestId('operation-stats')).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(row(page, 'operation-logs-table', path)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(row(page, 'operation-logs-table', path)).toContainText('admin');
  await row(page, 'operation-logs-table', path).getByRole('button', { name: 'Details' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText(`Request PUT ${path}`);
  await expect(drawer.getByTestId('request-body')).toContainText(`After ${code}`);
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The export of that view starts with the field names.
  const ops = await headerOf(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
  expect(ops.name).toMatch(/^operation-logs-\d{4}-\d\d-\d\d\.csv$/);
  expect(ops.header).toBe(
    'id,tenant_id,anonymous,user_id,username,module,action,method,path,status,ip,user_agent,latency_ms,request_id,request_body,response_body,created_at',
  );

  // The business audit: the role's rows, their diff, the facets as filters, the export.
  await page.goto(`/audit/business?target_type=role&target_id=${role.id}`);
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.ant-table-row')).toHaveCount(2, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  const update = page.locator('.ant-table-row').first();
  await update.getByRole('button', { name: 'Changes' }).click();
  const diff = page.getByRole('dialog').getByTestId('audit-diff');
  const name = diff.locator('.ant-table-row').filter({ hasText: /^name/ });
  await expect(name).toContainText('Changed');
  await expect(name).toContainText(`Before ${code}`);
  await expect(name).toContainText(`After ${code}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  const facets = page.getByTestId('facet-action');
  const first = facets.locator('.ant-tag-checkable').first();
  const action = (await first.textContent())?.replace(/ \(\d+\)$/, '') ?? '';
  await first.click();
  await expect(page).toHaveURL(new RegExp(`action=${action}`));
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await facets.locator('.ant-tag-checkable-checked').click();
  await expect(page).not.toHaveURL(/action=/);

  const business = await headerOf(page, () =>
    page.getByRole('button', { name: 'Export CSV' }).click(),
  );
  expect(business.header).toBe(
    'id,created_at,actor_id,actor_name,action,target_type,target_id,summary,before,after',
  );
  await expect(page.getByTestId('chain-verification')).toContainText(
    /The chain is intact: \d+ links verified/,
  );
  await page.context().close();
});

test('the login logs show the 7-day trend and its table, and a clear names what will go', async ({
  browser,
}) => {
  const page = await signedIn(browser, admin, '/audit/logins?username=admin&success=true');
  await expect(page.getByTestId('login-trend-table').locator('.ant-table-row')).toHaveCount(7);
  await expect(page.getByTestId('login-stats')).toContainText('Distinct users');
  await expect(row(page, 'login-logs-table', 'admin').first()).toContainText('Succeeded');
  await page.getByLabel('Days to keep').fill('3650');
  await page.getByTestId('clear-logins').click();
  await expect(page.getByRole('tooltip')).toContainText(
    'Delete every entry of the login logs older than 3650 days?',
  );
  await page.getByRole('button', { name: 'Delete entries' }).click();
  await expect(page.getByText(/^\d+ entries deleted\.$/)).toBeVisible();

  await page.goto('/audit/operations');
  await page.getByLabel('Days to keep').fill('0');
  await page.getByTestId('clear-operations').click();
  await expect(page.getByRole('tooltip')).toContainText(
    'Delete every entry of the operation logs up to now?',
  );
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.context().close();
});

const PAGES = [
  { path: '/audit/operations', ready: 'Operation logs' },
  { path: '/audit/logins', ready: 'Login logs' },
  { path: '/audit/business', ready: 'Business audit' },
];

test('every audit page and the diff pass axe in the light and the dark theme', async ({
  browser,
  request,
}) => {
  // Three pages and two drawers audited: more than the default minute on a shared machine.
  test.setTimeout(150_000);
  // A change to list, so the business audit has a row and a diff.
  const { token } = await apiLogin(request, admin.username, admin.password);
  const code = uniq('axe');
  await call(request, token, 'POST', '/api/v1/roles', { code, name: code, permissions: [] });

  const page = await signedIn(browser, admin, '/audit/operations');
  for (const { path, ready } of PAGES) {
    await page.goto(path);
    await expect(page.getByText(ready, { exact: true }).first()).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    expect.soft(await auditThemes(page, 'main'), path).toEqual([]);
  }
  await page.locator('.ant-table-row').first().getByRole('button', { name: 'Changes' }).click();
  await expect(page.getByTestId('audit-diff')).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-drawer'), 'diff').toEqual([]);
  await page.goto('/audit/operations');
  await page
    .getByTestId('operation-logs-table')
    .locator('.ant-table-row')
    .first()
    .getByRole('button', { name: 'Details' })
    .click();
  await expect(page.getByTestId('request-body')).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-drawer'), 'operation detail').toEqual([]);
  await page.context().close();
});

test('the audit pages read in Simplified Chinese', async ({ browser }) => {
  const page = await signedIn(browser, admin, '/audit/operations');
  await page.evaluate(() => localStorage.setItem('approva.language', 'zh-CN'));
  await page.goto('/audit/operations');
  await expect(page.getByText('操作日志', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /导出 CSV/ })).toBeVisible();
  await page.goto('/audit/logins');
  await expect(page.getByText('最近 7 天的登录', { exact: true })).toBeVisible();
  await page.goto('/audit/business');
  await expect(page.getByText('业务审计', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('chain-verification')).toContainText('哈希链完整');
  await page.context().close();
});
