import { expect, test, type Page } from '@playwright/test';
import {
  apiLogin,
  call,
  chain,
  createRole,
  createUser,
  publishFlow,
  startInstance,
  uniq,
} from './api';
import { audit } from './axe';
import { signedIn, type Person } from './session';

/**
 * The console's frame: navigation by the caller's rights, the 403 page for a deep link they
 * may not use, the 404 page, a missing record, reloads of client routes, the forced password
 * change without 403 polling, and the dark theme's contrast.
 */
const admin: Person = { username: 'admin', password: 'admin123' };

/** Every API answer the page receives from now on, as `status path`. */
function recordAnswers(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/api/')) seen.push(`${res.status()} ${url.pathname}`);
  });
  return seen;
}

test('a user without rights gets the 403 page on a deep link, and no data', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const plain = await createUser(request, token, 'Plain');
  const page = await signedIn(browser, plain);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('menuitem', { name: /To do/ })).toBeVisible();
  await expect(nav.getByRole('menuitem', { name: 'Flow designer' })).toHaveCount(0);

  const answers = recordAnswers(page);
  await page.goto('/designer/1');
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  await expect(page.getByText('You do not have permission to use this page.')).toBeVisible();
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  expect(answers.filter((a) => /definitions|\/users/.test(a))).toEqual([]);
  expect.soft(await audit(page)).toEqual([]);
  await page.context().close();
});

test('the navigation shows the entries a role opens, from the server menu tree', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const role = await createRole(request, token, ['bpm:definition:list']);
  const designer = await createUser(request, token, 'Designer', [role]);
  const mine = await call<{ path: string | null }[]>(request, token, 'GET', '/api/v1/menus/my');
  expect(mine.length).toBeGreaterThan(0);
  const page = await signedIn(browser, designer);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('menuitem', { name: 'Flow designer' }).click();
  await expect(page).toHaveURL(/\/designer$/);
  await expect(page.getByRole('heading', { name: 'No access' })).toHaveCount(0);
  // A menu entry the administrator adds shows up after the next sign-in, by its name.
  const name = uniq('Help desk ');
  await call(request, token, 'POST', '/api/v1/menus', {
    name,
    kind: 'page',
    path: '/cc',
    sort: 999,
  });
  const again = await signedIn(browser, designer);
  await expect(
    again.getByRole('navigation', { name: 'Main navigation' }).getByRole('menuitem', { name }),
  ).toBeVisible();
  await page.context().close();
  await again.context().close();
});

test('unknown routes show a 404 page; a missing record offers the way back', async ({
  browser,
}) => {
  const page = await signedIn(browser, admin);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/no\/such\/page$/);

  const answers = recordAnswers(page);
  await page.goto('/instances/abc');
  await expect(page.getByText('This record does not exist or you cannot see it.')).toBeVisible();
  expect(answers.filter((a) => a.includes('/bpm/instances/'))).toEqual([]);
  await page.goto('/instances/987654321');
  await expect(page.getByText('This record does not exist or you cannot see it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to the list' }).click();
  await expect(page).toHaveURL(/\/my$/);
  await page.context().close();
});

test('a forced password change survives a reload and polls nothing that answers 403', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const username = uniq('fresh');
  const initial = 'Amber-Lantern-Quay-71';
  await call(request, token, 'POST', '/api/v1/users', { username, password: initial });
  const context = await browser.newContext();
  const page = await context.newPage();
  const answers = recordAnswers(page);
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(initial);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/password$/);
  await expect(page.getByText('Your password must be changed before you continue.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Your password must be changed before you continue.')).toBeVisible();
  await page.waitForTimeout(1500);
  expect(answers.filter((a) => a.startsWith('403'))).toEqual([]);
  await context.close();
});

test('the signed-in pages pass axe in the dark theme', async ({ browser }) => {
  // Six audits, each 5-8 s on two busy cores: CI's took 48 of the default 60 s.
  test.setTimeout(150_000);
  const page = await signedIn(browser, admin);
  await page.evaluate(() => localStorage.setItem('approva.theme', 'dark'));
  for (const path of ['/todo', '/start', '/my', '/designer', '/profile', '/no/such/page']) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    expect.soft(await audit(page), path).toEqual([]);
  }
  // The sider is the dark theme's grey, not antd's navy.
  const sider = await page
    .locator('.ant-layout-sider')
    .evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(sider).not.toBe('rgb(0, 21, 41)');
  await page.context().close();
});

test('the bell counts unread notices on every page; the drawer lists them and marks them read', async ({
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
  await startInstance(request, aliceApi.token, flow.key, 'a request for the bell');
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const unreadNow = async () =>
    (await call<{ count: number }>(request, bobApi.token, 'GET', '/api/v1/inbox/unread-count'))
      .count;
  // The todo notice reaches the inbox through the outbox worker.
  await expect.poll(unreadNow).toBeGreaterThan(0);

  const page = await signedIn(browser, bob, '/done');
  const bell = page.getByTestId('inbox-bell');
  // The bell says what the server counts. Signing in may add a new-device notice at any moment
  // of this test, so the bell is compared with the server's count of that moment each time.
  const bellMatchesServer = () =>
    expect(async () => {
      const unread = await unreadNow();
      await expect(bell).toHaveAccessibleName(
        unread > 0 ? `Notifications: ${unread} unread` : 'Notifications',
        { timeout: 1000 },
      );
    }).toPass({ timeout: 40_000 });
  await bellMatchesServer();
  expect(await unreadNow()).toBeGreaterThan(0);
  // On another page too.
  await page.goto('/profile');
  await bellMatchesServer();
  await bell.click();
  const drawer = page.getByRole('dialog', { name: 'Notifications' });
  const first = drawer.locator('[data-testid^="inbox-notice-"]').first();
  await expect(first).toContainText('Unread');
  expect.soft(await audit(page, '.ant-drawer')).toEqual([]);
  await first.getByRole('button', { name: 'Mark read' }).click();
  await expect(first).not.toContainText('Unread');
  await bellMatchesServer();
  await drawer.getByRole('button', { name: 'Mark all read' }).click();
  await expect.poll(unreadNow).toBe(0);
  await expect(bell).toHaveAccessibleName('Notifications');
  await page.context().close();
});
