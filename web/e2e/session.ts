import { expect, type Browser, type Page } from '@playwright/test';

export interface Person {
  username: string;
  password: string;
}

/** A browser of its own for each person, signed in through the sign-in page. */
export async function signedIn(browser: Browser, person: Person, path = '/todo'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path);
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  return page;
}

/** Picks an option of an antd Select by typing and choosing the matching entry. */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option).first().click();
}
