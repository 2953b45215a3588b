import { randomUUID } from 'node:crypto';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';

export interface Person {
  username: string;
  password: string;
}

/**
 * A browser of its own for each person, signed in (to the platform at `baseURL`, when a spec
 * starts one of its own). The sign-in goes through the API, as the sign-in page would send it,
 * and the tokens are put where the console keeps them: the sign-in page itself is tested by the
 * specs about it (`signInThroughPage`), and a hundred stories need not each fill it in again.
 */
export async function signedIn(
  browser: Browser,
  person: Person,
  path = '/todo',
  baseURL?: string,
): Promise<Page> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  const device = randomUUID();
  const res = await context.request.post('/api/v1/login', {
    data: { username: person.username, password: person.password },
    headers: { 'x-device-id': device },
  });
  if (!res.ok())
    throw new Error(`sign-in of ${person.username}: ${res.status()} ${await res.text()}`);
  const { data } = (await res.json()) as { data: { access_token: string; refresh_token: string } };
  const page = await context.newPage();
  // Any page of the console's origin that is not the console: the tokens go in before it starts.
  await page.goto('/robots.txt');
  await page.evaluate(
    ({ tokens, id }) => {
      localStorage.setItem('approva.tokens', tokens);
      localStorage.setItem('approva.device_id', id);
    },
    {
      tokens: JSON.stringify({
        access_token: data.access_token,
        refresh_token: data.refresh_token,
      }),
      id: device,
    },
  );
  await page.goto(path);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  return page;
}

/** As `signedIn`, through the sign-in page: for the specs about signing in. */
export async function signInThroughPage(
  browser: Browser,
  person: Person,
  path = '/todo',
  baseURL?: string,
): Promise<Page> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  const page = await context.newPage();
  await page.goto(path);
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  return page;
}

/**
 * Picks `option` in the antd Select whose combobox is named `label`, and waits until the select
 * shows it. The option is looked for in this select's own list (found through the id the
 * combobox gives it), never in another select's list that may still be fading out; a click lost
 * while the list moves or closes is tried again, opening the list again only when it is shut.
 */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  const box = page.getByRole('combobox', { name: label });
  const select = page.locator('.ant-select').filter({ has: box });
  const id = await box.getAttribute('id');
  const list = page.locator(`.ant-select-dropdown:visible:has([id="${id}_list"])`);
  await expect(async () => {
    if (!(await list.isVisible())) await box.click({ timeout: 2000 });
    await list
      .getByTitle(option, { exact: typeof option === 'string' })
      .first()
      .click({ timeout: 2000 });
    await expect(select).toContainText(option, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
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

/**
 * Submits the open dialog and waits until it closes. A click that lands while the dialog is still
 * opening can be lost (CI saw the dialog stay open, its button never pressed): it is tried
 * again while the dialog is open; a button that took the click shows it is busy and ignores
 * another, so nothing is sent twice.
 */
export async function submitDialog(page: Page, name = 'Submit') {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(async () => {
    if (await dialog.isVisible()) {
      await dialog.getByRole('button', { name }).click({ timeout: 2000 });
    }
    await expect(dialog).toHaveCount(0, { timeout: 3000 });
  }).toPass({ timeout: 20_000 });
}
