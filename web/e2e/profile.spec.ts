import { expect, test } from '@playwright/test';
import { apiLogin, createUser } from './api';
import type { Person } from './session';

/** The profile page: who I am, and my sign-in history with the failed attempt before it. */
const admin: Person = { username: 'admin', password: 'admin123' };

test('a user sees their profile and their sign-in history, a failed attempt included', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const erin = await createUser(request, token, 'Erin');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(erin.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password').fill(erin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();

  await page.getByTestId('user-menu').hover();
  await page.getByRole('menuitem', { name: 'My profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const me = page.locator('.ant-card').filter({ hasText: 'My profile' });
  await expect(me.getByText(erin.username)).toBeVisible();
  await expect(me.getByText('Erin', { exact: true })).toBeVisible();

  // Sign-in events are written in batches: the page shows them once they are stored.
  const history = page.locator('.ant-card').filter({ hasText: 'My sign-in history' });
  await expect(async () => {
    await page.reload();
    await expect(history.getByText('Signed in').first()).toBeVisible({ timeout: 2000 });
    await expect(history.getByText('Wrong password')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  // Newest first: the successful sign-in above the failed one.
  const rows = history.locator('.ant-table-row');
  await expect(rows.first()).toContainText('Signed in');
  await expect(rows.nth(1)).toContainText('Wrong password');
  await expect(rows.first()).toContainText('127.0.0.1');
  await context.close();
});
