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

test('runs the console and the API reference under their CSP without a violation', async ({
  page,
}) => {
  // Every `securitypolicyviolation` event of every page, reported to the test as it happens.
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportCspViolation(v: string): void }).reportCspViolation(
        `${e.violatedDirective} ${e.blockedURI} at ${e.documentURI}`,
      ),
    );
  });
  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  for (const path of ['/done', '/my', '/start', '/designer', '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  }
  await page.goto('/api/docs/');
  await expect(page.locator('.swagger-ui .information-container')).toBeVisible();
  expect(violations).toEqual([]);
});
