import { expect, test } from '@playwright/test';
import { apiLogin, chain, createUser, publishFlow, startInstance } from './api';
import { audit } from './axe';
import { signedIn, type Person } from './session';

/**
 * Accessibility: an axe audit of the main pages (no serious or critical violation), and the
 * action forms used with the keyboard alone.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };
let alice: Person & { id: number };
let bob: Person & { id: number };
let flow: { id: number; key: string; name: string };

test.beforeAll(async ({ request }) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  alice = await createUser(request, token, 'Alice');
  bob = await createUser(request, token, 'Bob');
  flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [bob.id] }]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  await startInstance(request, aliceApi.token, flow.key, 'a11y audit');
  await startInstance(request, aliceApi.token, flow.key, 'keyboard only');
});

test('sign-in, start, todo, detail with an action form open and the designer pass axe', async ({
  browser,
}) => {
  // A run of audits, each 5-8 s on two busy cores: CI's took 54 of the default 60 s.
  test.setTimeout(150_000);
  const context = await browser.newContext();
  const anonymous = await context.newPage();
  await anonymous.goto('/login');
  await expect(anonymous.getByLabel('Username')).toBeVisible();
  expect.soft(await audit(anonymous)).toEqual([]);
  await context.close();

  const page = await signedIn(browser, bob, '/start');
  await expect(page.getByTestId(`startable-${flow.key}`)).toBeVisible();
  expect.soft(await audit(page)).toEqual([]);

  await page.goto('/todo');
  await expect(page.getByRole('link').filter({ hasText: flow.name }).first()).toBeVisible();
  expect.soft(await audit(page)).toEqual([]);

  await page.getByRole('link').filter({ hasText: flow.name }).first().click();
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('diagram-node-lead')).toBeVisible();
  expect.soft(await audit(page)).toEqual([]);
  await page.getByTestId('action-approve').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect.soft(await audit(page, '.ant-modal')).toEqual([]);
  await page.context().close();

  const designer = await signedIn(browser, admin, `/designer/${flow.id}`);
  await expect(designer.getByTestId('designer-node-lead')).toBeVisible();
  expect.soft(await audit(designer)).toEqual([]);
  await designer.getByRole('tab', { name: 'Settings' }).click();
  await expect(designer.getByRole('switch', { name: 'Who may start it' })).toBeVisible();
  expect.soft(await audit(designer)).toEqual([]);
  await designer.context().close();
});

test('an approver opens an action form, fills it and submits it with the keyboard alone', async ({
  browser,
}) => {
  const page = await signedIn(browser, bob);
  const link = page.getByRole('link').filter({ hasText: flow.name }).first();
  await expect(link).toBeVisible();
  // Tab to the request's link, open it with Enter.
  await expect(async () => {
    await page.keyboard.press('Tab');
    await expect(link).toBeFocused({ timeout: 200 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('timeline')).toBeVisible();
  // Tab to the reject button, open its form with Enter.
  const reject = page.getByTestId('action-reject');
  await expect(async () => {
    await page.keyboard.press('Tab');
    await expect(reject).toBeFocused({ timeout: 200 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // The comment has the focus; submitting an empty one shows the rule, typing fixes it.
  await expect(page.getByTestId('action-comment')).toBeFocused();
  await page.keyboard.type('Not this quarter');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toContainText('Not this quarter');
  await expect(page.getByTestId('timeline')).toContainText('Rejected');
  await page.context().close();
});
