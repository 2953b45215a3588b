import { expect, type Browser, type Locator, type Page } from '@playwright/test';

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

/**
 * Picks a person in a people picker (the directory every signed-in user may search): typed by
 * their username, which is unique, and chosen by the name shown once it is the only answer;
 * then the field is left, which closes its list.
 */
export async function pickPerson(
  page: Page,
  box: Locator,
  person: { username: string; nickname: string },
) {
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(async () => {
    await box.click();
    await box.fill(person.username);
    await expect(options).toHaveCount(1, { timeout: 3000 });
    await options.filter({ hasText: person.nickname }).click({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // A multiple picker keeps its list open after a pick: leaving the field closes it (Tab or
  // Escape would choose the highlighted option or close the dialog around it).
  await box.evaluate((el) => (el as HTMLElement).blur());
}
