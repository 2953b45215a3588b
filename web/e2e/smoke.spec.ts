import { expect, test } from '@playwright/test';

test('signs in, lands on the todo list, switches the language and keeps it', async ({ page }) => {
  await page.goto('/done');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdone/);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/done$/);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();

  await page.getByTestId('language-switch').click();
  await page.getByTitle('简体中文').click();
  await expect(page.getByRole('menuitem', { name: /待办/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('menuitem', { name: /待办/ })).toBeVisible();
  await page.getByTestId('language-switch').click();
  await page.getByTitle('English').click();
  await expect(page.getByRole('menuitem', { name: /To do/ })).toBeVisible();
});
