import { expect, test, type Page } from '@playwright/test';
import { apiLogin, call, createRole, createUser, uniq, type User } from './api';
import { choose, type Person, pickPerson, signedIn, submitDialog } from './session';

/**
 * One story, in order: an admin designs and publishes a two-step flow with a branch and a form;
 * an initiator previews the route and starts requests; approvers approve, reject (with and
 * without a comment), transfer and delegate, and everyone sees the diagram and timeline move.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };
let alice: User;
let bob: User;
let carol: User;
let dave: User;
const flowKey = uniq('trip');
const flowName = `Trip ${flowKey}`;

test.beforeAll(async ({ request }) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  // The initiator may read definitions, which the server's route preview (simulate) requires.
  const previewer = await createRole(request, token, ['bpm:definition:list']);
  alice = await createUser(request, token, 'alice', [previewer]);
  bob = await createUser(request, token, 'bob');
  carol = await createUser(request, token, 'carol');
  dave = await createUser(request, token, 'dave');
});

async function pickUser(page: Page, label: string, user: User) {
  const drawer = page.locator('.ant-drawer-open');
  // The people directory answers a pause in typing; retried until the person is selected.
  await pickPerson(page, page.getByLabel(label), user);
  await expect(drawer.locator('.ant-select-selection-item')).toContainText(user.nickname);
  // Closes the drop-down (Escape could close the drawer itself).
  await drawer.locator('.ant-drawer-title').click();
}

test('an admin designs a two-step flow with a form and a branch, sees the publish problems on the node, and publishes', async ({
  browser,
}) => {
  const page = await signedIn(browser, admin, '/designer');
  await page.getByTestId('new-flow').click();
  await page.getByTestId('new-flow-key').fill(flowKey);
  await page.getByTestId('new-flow-name').fill(flowName);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(flowKey).first()).toBeVisible();

  // The form: a required amount and a reason.
  await page.getByRole('tab', { name: 'Form' }).click();
  await page.getByTestId('add-field').click();
  await page.getByTestId('field-key-0').fill('amount');
  await page.getByTestId('field-label-0').fill('Amount');
  await page.getByTestId('field-type-0').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('Amount (yuan)').click();
  await page.getByRole('checkbox', { name: 'Required' }).first().check();
  await page.getByTestId('add-field').click();
  await page.getByTestId('field-key-1').fill('reason');
  await page.getByTestId('field-label-1').fill('Reason');

  // Step one: bob approves.
  await page.getByRole('tab', { name: 'Flow' }).click();
  await page.locator('[data-testid^="designer-node-approve_"]').first().click();
  await page.getByTestId('node-name').fill('Manager');
  await pickUser(page, 'People', bob);
  await page.getByTestId('drawer-apply').click();
  await expect(page.locator('.ant-drawer-open')).toHaveCount(0);

  // A branch after it: big amounts go to carol as well.
  await page.getByRole('button', { name: 'Add a step after "Manager"' }).click();
  await page.getByRole('menuitem', { name: 'Branch' }).click();
  await page.getByTestId('designer-publish').click();
  // The empty condition is refused by the server and shown on the branch at fault.
  await expect(page.getByTestId('designer-error')).toBeVisible();
  const faultyArm = page.locator('[data-testid^="designer-branch-"]').first();
  await expect(faultyArm.getByRole('alert').first()).toBeVisible();

  await faultyArm.click();
  await page.getByLabel('Name').fill('Over 1000');
  await choose(page, 'Field', /Amount/);
  await choose(page, 'Operator', '>');
  await page.getByRole('textbox', { name: 'Value' }).fill('1000');
  await page.getByTestId('drawer-apply').click();
  await page.getByRole('button', { name: 'Add a step after "Over 1000"' }).click();
  await page.getByRole('menuitem', { name: 'Approval step' }).click();
  await page
    .locator('[data-testid^="designer-branch-"]')
    .first()
    .locator('..')
    .locator('[data-testid^="designer-node-approve_"]')
    .click();
  await page.getByTestId('node-name').fill('Director');
  await pickUser(page, 'People', carol);
  await page.getByTestId('drawer-apply').click();
  await expect(page.locator('.ant-drawer-open')).toHaveCount(0);

  await page.getByTestId('designer-publish').click();
  await expect(page.getByText('Only drafts can be edited')).toBeVisible();
  await expect(page.getByTestId('designer-error')).toHaveCount(0);

  // Dry run: the branch decision and why.
  await page.getByRole('tab', { name: 'Dry run' }).click();
  await page.getByLabel('Amount').fill('1500');
  // The dry run starts the request as the person picked, not as the designer.
  await pickPerson(page, page.getByRole('combobox', { name: 'Started by' }), alice);
  let sent: unknown = null;
  await page.route('**/simulate', async (route) => {
    sent = route.request().postDataJSON();
    await route.continue();
  });
  await page.getByTestId('designer-dry-run').click();
  await expect.poll(() => sent).toMatchObject({ initiator_id: alice.id });
  await expect(page.getByTestId('route-preview')).toContainText('Over 1000');
  // In words, with amounts in yuan: never the raw condition or the amount in cents.
  await expect(page.getByTestId('route-preview')).toContainText(
    'Amount ¥1,500.00 is over ¥1,000.00',
  );
  await expect(page.getByTestId('route-preview')).not.toContainText('"op"');
  await expect(page.getByTestId('route-preview')).not.toContainText('150000');
  // The designer's branch card reads the operator in words too.
  await page.getByRole('tab', { name: 'Flow' }).click();
  await expect(page.locator('[data-testid^="designer-branch-"]').first()).toContainText(
    'Amount > ¥1,000.00',
  );
  await page.context().close();
});

async function startRequest(page: Page, amount: string, reason: string) {
  await page.goto('/start');
  await page.getByTestId(`startable-${flowKey}`).click();
  await page.getByLabel('Amount').fill(amount);
  await page.getByLabel('Amount').blur();
  await page.getByLabel('Reason').fill(reason);
  await page.getByRole('button', { name: 'Preview the route' }).click();
  await expect(page.getByTestId('route-preview')).toContainText('Manager');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/instances\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

test('the initiator previews the route and starts two requests; the amount shows in yuan', async ({
  browser,
}) => {
  const page = await signedIn(browser, alice);
  // Refused as the server would: three decimals.
  await page.goto('/start');
  await page.getByTestId(`startable-${flowKey}`).click();
  await page.getByLabel('Amount').fill('12.345');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Amount is not in the right format')).toBeVisible();

  const big = await startRequest(page, '1500.5', 'conference');
  await expect(page.getByTestId('instance-form')).toContainText('¥ 1500.50');
  await expect(page.getByTestId('diagram-node-start')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('timeline')).toContainText('Started');
  // The initiator reminds the waiting approver (催办): the server offers it, the timeline shows it.
  await page.getByTestId('action-urge').click();
  await submitDialog(page);
  await expect(page.getByTestId('timeline')).toContainText('Reminded the approvers');
  await startRequest(page, '10', 'taxi');
  test.info().annotations.push({ type: 'instance', description: String(big) });
  await page.context().close();
});

test('an approver approves one request and rejects the other, a comment being required', async ({
  browser,
}) => {
  const page = await signedIn(browser, bob);
  // Every action request the page sends, with its Idempotency-Key: one click, one request.
  const sent: { action: string; key: string | undefined }[] = [];
  page.on('request', (request) => {
    const action = /\/api\/v1\/bpm\/tasks\/\d+\/(\w+)$/.exec(new URL(request.url()).pathname);
    if (request.method() === 'POST' && action) {
      sent.push({ action: action[1]!, key: request.headers()['idempotency-key'] });
    }
  });
  await expect(page).toHaveTitle(/^\(2\) /);
  await page
    .getByRole('link', { name: /conference|Trip/ })
    .first()
    .waitFor();
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(2);

  // The taxi request: reject without a comment is refused, with one it ends the request.
  await page.goto('/todo');
  await page.getByRole('link').filter({ hasText: flowName }).first().click();
  const isTaxi = (await page.getByTestId('instance-form').textContent())?.includes('taxi');
  if (!isTaxi) {
    await page.goto('/todo');
    await page.getByRole('link').filter({ hasText: flowName }).nth(1).click();
  }
  await expect(page.getByTestId('instance-form')).toContainText('taxi');
  await page.getByTestId('action-reject').click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('A comment is required')).toBeVisible();
  await page.getByTestId('action-comment').fill('Take the bus');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Rejected').first()).toBeVisible();
  await expect(page.getByTestId('timeline')).toContainText('Take the bus');
  // The refusal for the missing comment came from the form, not the server: one reject sent.
  expect(sent.map((r) => r.action)).toEqual(['reject']);

  // The conference request: approve; the branch sends it on to carol.
  await page.goto('/todo');
  await page.getByRole('link').filter({ hasText: flowName }).first().click();
  await expect(page.getByTestId('instance-form')).toContainText('conference');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('explain-result')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('action-approve').click();
  await page.getByTestId('action-comment').fill('Fine by me');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('timeline')).toContainText('Fine by me');
  expect(sent.map((r) => r.action)).toEqual(['reject', 'approve']);
  expect(new Set(sent.map((r) => r.key)).size).toBe(2);
  await expect(
    page.locator('[data-testid^="diagram-node-approve_"][data-state="done"]'),
  ).toHaveCount(1);
  await expect(
    page.locator('[data-testid^="diagram-node-approve_"][data-state="active"]'),
  ).toHaveCount(1);
  await page.context().close();
});

test('the next approver transfers the task, and the new one delegates it', async ({ browser }) => {
  const page = await signedIn(browser, carol);
  await page.getByRole('link').filter({ hasText: flowName }).first().click();
  await page.getByTestId('action-transfer').click();
  await pickPerson(page, page.getByRole('combobox', { name: 'To', exact: true }), dave);
  await page.getByTestId('action-comment').fill('Dave handles trips');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('timeline')).toContainText('Transferred');
  await page.context().close();

  const davePage = await signedIn(browser, dave);
  await davePage.getByRole('link').filter({ hasText: flowName }).first().click();
  await davePage.getByTestId('action-delegate').click();
  await pickPerson(davePage, davePage.getByRole('combobox', { name: 'To', exact: true }), bob);
  await davePage.getByRole('button', { name: 'Submit' }).click();
  await expect(davePage.getByTestId('timeline')).toContainText('Delegated');
  await davePage.context().close();

  const bobPage = await signedIn(browser, bob);
  await bobPage.getByRole('link').filter({ hasText: flowName }).first().click();
  await expect(bobPage.getByTestId('action-resolve')).toBeVisible();
  await bobPage.context().close();
});

test('the initiator sees the outcome in the list of requests, in Chinese too', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, alice.username, alice.password);
  const mine = await call<{ list: { status: string }[] }>(
    request,
    token,
    'GET',
    '/api/v1/bpm/instances/my',
  );
  expect(mine.list.map((i) => i.status).sort()).toEqual(['rejected', 'running']);
  const page = await signedIn(browser, alice, '/my');
  await expect(page.getByText('Rejected')).toBeVisible();
  await page.getByTestId('language-switch').click();
  await page.getByTitle('简体中文').click();
  await expect(page.getByText('已驳回')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /我发起的/ })).toBeVisible();
  await page.context().close();
});
