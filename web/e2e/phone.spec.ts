import { expect, test, type Page } from '@playwright/test';
import { apiLogin, chain, createUser, publishFlow, startInstance } from './api';
import { fitsTheScreen } from './screen';
import type { Person } from './session';

/**
 * A phone-width screen (390 × 844): todo, a request's detail and the approve form are usable,
 * nothing is wider than the screen and every control used is inside it.
 */
const admin: Person = { username: 'admin', password: 'admin123' };

/** The element is visible and its box lies within the screen's width. */
async function reachable(page: Page, locator: ReturnType<Page['locator']>) {
  await expect(locator).toBeVisible();
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

test('on a phone: todo, detail and the approve form fit the screen', async ({
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
  await startInstance(request, aliceApi.token, flow.key, 'a phone-sized request');

  // Not `isMobile`: a mobile browser zooms out to fit content wider than the screen, which
  // would hide the very overflow this test looks for; the layout width stays 390 px here.
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto('/todo');
  await fitsTheScreen(page);
  await page.getByLabel('Username').fill(bob.username);
  await page.getByLabel('Password').fill(bob.password);
  await reachable(page, page.getByRole('button', { name: 'Sign in' }));
  await page.getByRole('button', { name: 'Sign in' }).click();

  const link = page.getByRole('link').filter({ hasText: flow.name }).first();
  await reachable(page, link);
  // The menu button sits in the header, and no header control covers the page.
  const main = (await page.locator('main').boundingBox())!;
  for (const control of [
    page.getByTestId('nav-drawer-button'),
    page.getByTestId('language-switch'),
    page.getByTestId('user-menu'),
  ]) {
    await reachable(page, control);
    const box = (await control.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(main.y);
  }
  // The page takes the whole width: the menu is a drawer, not a column beside it.
  expect(main.width).toBeGreaterThanOrEqual(390 - 2 * 8 - 1);
  await fitsTheScreen(page);
  // The drawer opens over the page, lists the pages and closes on the way to one.
  await page.getByTestId('nav-drawer-button').click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('menuitem', { name: 'Done' })).toBeVisible();
  await drawer.getByRole('menuitem', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/done$/);
  await expect(drawer).toBeHidden();
  await page.goto('/todo');
  await reachable(page, link);
  await link.click();

  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('instance-initiator')).toHaveText(alice.username);
  // The route fits its card: every step of it is on the screen.
  await reachable(page, page.getByTestId('diagram-node-start'));
  await reachable(page, page.getByTestId('diagram-node-lead'));
  await fitsTheScreen(page);
  const approve = page.getByTestId('action-approve');
  await reachable(page, approve);
  await approve.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await fitsTheScreen(page);
  await reachable(page, page.getByTestId('action-comment'));
  await page.getByTestId('action-comment').fill('Approved from my phone');
  const submit = dialog.getByRole('button', { name: 'Submit' });
  await reachable(page, submit);
  await submit.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toContainText('Approved from my phone');
  await expect(page).toHaveURL(new RegExp(`/(tasks|instances)/\\d+$`));
  await fitsTheScreen(page);
  await context.close();
});
