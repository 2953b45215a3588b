import { expect, test } from '@playwright/test';
import {
  apiLogin,
  call,
  chain,
  createUser,
  publishFlow,
  startInstance,
  todoTaskOf,
  uniq,
} from './api';
import { audit } from './axe';
import { signedIn, type Person } from './session';

/** The dashboard at `/`: everyone's own work and notices; administrators' platform overview. */
const admin: Person = { username: 'admin', password: 'admin123' };

test('a user lands on the dashboard: their todo with the oldest item, open requests, notices', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const alice = await createUser(request, token, 'Alice');
  const bob = await createUser(request, token, 'Bob');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [bob.id] }]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const first = await startInstance(request, aliceApi.token, flow.key, 'first waiting');
  await startInstance(request, aliceApi.token, flow.key, 'second waiting');
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const oldestTask = await todoTaskOf(request, bobApi.token, first);
  const title = uniq('Maintenance tonight ');
  await call(request, token, 'POST', '/api/v1/notices', {
    title,
    body: 'The platform restarts at 22:00.',
    level: 'warning',
    published: true,
  });

  // Signing in without a page to return to lands on the dashboard.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(bob.username);
  await page.getByLabel('Password').fill(bob.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByTestId('dashboard-todo-count')).toContainText('2');
  await expect(page.getByTestId('dashboard-oldest')).toContainText(flow.name);
  await expect(page.getByTestId('dashboard-oldest').getByRole('link')).toHaveAttribute(
    'href',
    `/tasks/${oldestTask}`,
  );
  await expect(page.getByText('You have no request in progress.')).toBeVisible();
  // Platform figures are for administrators only.
  await expect(page.getByTestId('dashboard-health')).toHaveCount(0);
  expect.soft(await audit(page)).toEqual([]);
  await page.getByTestId('dashboard-oldest').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${oldestTask}$`));
  await context.close();

  const mine = await signedIn(browser, alice, '/');
  const open = mine.getByTestId('dashboard-open-requests');
  await expect(open.getByRole('link', { name: flow.name })).toHaveCount(2);
  await expect(open.locator(`a[href="/instances/${first}"]`)).toBeVisible();
  await mine.context().close();
});

test('an administrator sees today, the stuck requests and the health, in both languages and themes', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  // One step approved just now, so the last 24 hours hold at least one decision.
  const approver = await createUser(request, token, 'Dash Approver');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'a', name: 'A', users: [approver.id] }]),
  );
  const instance = await startInstance(request, token, flow.key, 'dashboard decision');
  const { token: approverToken } = await apiLogin(request, approver.username, approver.password);
  const task = await todoTaskOf(request, approverToken, instance);
  await call(request, approverToken, 'POST', `/api/v1/bpm/tasks/${task}/approve`, {});
  const stats = await call<{ last_24h: { approved: number } }>(
    request,
    token,
    'GET',
    '/api/v1/bpm/stats',
  );
  const page = await signedIn(browser, admin, '/');
  await expect(page.getByTestId('dashboard-started-today')).toBeVisible();
  // The last 24 hours' approvals, as the server counts them.
  expect(stats.last_24h.approved).toBeGreaterThan(0);
  await expect(page.getByTestId('dashboard-approved-24h')).toContainText(
    String(stats.last_24h.approved),
  );
  await expect(page.getByTestId('dashboard-stuck')).toBeVisible();
  await expect(page.getByTestId('dashboard-health')).toContainText('Every service is ready');
  expect.soft(await audit(page)).toEqual([]);
  await page.evaluate(() => localStorage.setItem('approva.theme', 'dark'));
  await page.reload();
  await expect(page.getByTestId('dashboard-health')).toContainText('Every service is ready');
  expect.soft(await audit(page)).toEqual([]);
  await page.getByTestId('language-switch').click();
  await page.getByTitle('简体中文').click();
  await expect(page.getByRole('heading', { name: '工作台' })).toBeVisible();
  await expect(page.getByTestId('dashboard-health')).toContainText('所有服务就绪');
  expect.soft(await audit(page)).toEqual([]);
  await page.context().close();
});
