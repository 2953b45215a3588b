import { expect, test, type Page } from '@playwright/test';
import { apiLogin, call, createUser, uniq } from './api';
import { settled } from './axe';
import { signedIn } from './session';

/**
 * `npm run screenshots` at the root: the main pages in both languages, into docs/screenshots/.
 * Skipped by the ordinary e2e run so it never rewrites the committed images by accident.
 */
test.skip(!process.env.SCREENSHOTS, 'run with SCREENSHOTS=1 (npm run screenshots)');
test.describe.configure({ mode: 'serial' });

const OUT = '../docs/screenshots';

async function shoot(page: Page, name: string) {
  await settled(page);
  await page.screenshot({ path: `${OUT}/${name}.png` });
}

async function setLanguage(page: Page, language: 'en' | 'zh-CN') {
  await page.evaluate((l) => localStorage.setItem('approva.language', l), language);
  await page.reload();
}

test('main pages in English and Chinese', async ({ browser, request }) => {
  const { token } = await apiLogin(request, 'admin', 'admin123');
  const approver = await createUser(request, token, 'Wang Fang');
  const key = uniq('expense');
  const definition = await call<{ id: number }>(request, token, 'POST', '/api/v1/bpm/definitions', {
    key,
    name: 'Expense claim',
    category: 'Finance',
    form_mode: 'flow',
    form_schema: {
      fields: [
        { key: 'amount', label: 'Amount', type: 'amount', required: true, max: 50000 },
        { key: 'kind', label: 'Kind', type: 'select', options: ['Travel', 'Meals', 'Office'] },
        { key: 'day', label: 'Day', type: 'date' },
        { key: 'reason', label: 'Reason', type: 'textarea', required: true },
      ],
    },
    node_tree: {
      id: 'start',
      name: 'Start',
      type: 'start',
      child: {
        id: 'manager',
        name: 'Manager',
        type: 'approval',
        mode: 'or',
        assignee: { type: 'users', userIds: [approver.id] },
        child: {
          id: 'size',
          name: 'By amount',
          type: 'branch',
          branches: [
            {
              id: 'large',
              name: 'Over 5000',
              condition: { field: 'amount', op: 'gt', value: 500000 },
              child: {
                id: 'finance',
                name: 'Finance',
                type: 'approval',
                mode: 'and',
                assignee: { type: 'users', userIds: [1] },
                child: null,
              },
            },
            { id: 'small', name: 'Otherwise', default: true, child: null },
          ],
          child: {
            id: 'notify',
            name: 'Notify HR',
            type: 'cc',
            assignee: { type: 'users', userIds: [1] },
            child: null,
          },
        },
      },
    },
  });
  await call(request, token, 'POST', `/api/v1/bpm/definitions/${definition.id}/publish`);
  const instance = await call<{ id: number }>(request, token, 'POST', '/api/v1/bpm/instances', {
    definition_id: definition.id,
    title: 'Client visit, Shanghai',
    form: { amount: '6820.50', kind: 'Travel', day: '2026-11-20', reason: 'Train and hotel' },
  });

  for (const language of ['en', 'zh-CN'] as const) {
    const login = await (await browser.newContext()).newPage();
    await login.goto('/login');
    await setLanguage(login, language);
    await shoot(login, `${language}-sign-in`);
    await login.context().close();

    const page = await signedIn(browser, approver);
    await setLanguage(page, language);
    await page.goto('/todo');
    await expect(page.locator('.ant-table-row')).toHaveCount(1);
    await shoot(page, `${language}-todo`);
    await page.locator('.ant-table-row a').first().click();
    await expect(page.getByTestId('timeline')).toBeVisible();
    await shoot(page, `${language}-request-detail`);
    await page.getByTestId('action-approve').click();
    await shoot(page, `${language}-approve-form`);
    await page.context().close();

    const adminPage = await signedIn(browser, { username: 'admin', password: 'admin123' });
    await setLanguage(adminPage, language);
    await adminPage.goto('/start');
    await shoot(adminPage, `${language}-start`);
    await adminPage.goto(`/start/${definition.id}`);
    await adminPage
      .getByLabel(/Amount|金额/)
      .first()
      .fill('6820.5');
    await shoot(adminPage, `${language}-start-form`);
    await adminPage.goto(`/designer/${definition.id}`);
    await shoot(adminPage, `${language}-designer`);
    await adminPage.goto(`/instances/${instance.id}`);
    await expect(adminPage.getByTestId('timeline')).toBeVisible();
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await shoot(adminPage, `${language}-phone-request-detail`);
    await adminPage.context().close();
  }
});

/** One page of each administration family, in both languages; the dashboard in the dark theme too. */
test('administration pages in English and Chinese', async ({ browser, request }) => {
  const { token } = await apiLogin(request, 'admin', 'admin123');
  // Something to show: a colleague, a notice in effect, an audited change.
  await createUser(request, token, 'Li Na');
  await call(request, token, 'POST', '/api/v1/notices', {
    title: 'Quarter close on Friday',
    body: 'Expense claims for this quarter must be approved by Friday 18:00.',
    level: 'info',
    published: true,
  });
  const pages: Array<[string, string, string]> = [
    ['dashboard', '/', 'dashboard-health'],
    ['users', '/admin/users', ''],
    ['roles', '/admin/roles', ''],
    ['departments', '/admin/departments', ''],
    ['instances', '/approvals/instances', ''],
    ['analytics', '/approvals/analytics', ''],
    ['operation-logs', '/audit/operations', ''],
    ['business-audit', '/audit/business', ''],
    ['monitor', '/monitor', ''],
    ['settings', '/system/settings', ''],
    ['files', '/system/files', ''],
    ['oauth-clients', '/system/oauth-clients', ''],
  ];
  for (const language of ['en', 'zh-CN'] as const) {
    const page = await signedIn(browser, { username: 'admin', password: 'admin123' }, '/');
    await setLanguage(page, language);
    for (const [name, path, ready] of pages) {
      await page.goto(path);
      if (ready) await expect(page.getByTestId(ready)).toBeVisible();
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
      await shoot(page, `${language}-admin-${name}`);
    }
    await page.evaluate(() => localStorage.setItem('approva.theme', 'dark'));
    await page.goto('/');
    await expect(page.getByTestId('dashboard-health')).toBeVisible();
    await shoot(page, `${language}-admin-dashboard-dark`);
    await page.evaluate(() => localStorage.removeItem('approva.theme'));
    await page.context().close();
  }
});
