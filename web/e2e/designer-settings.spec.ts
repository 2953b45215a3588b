import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiLogin, call, createUser, uniq } from './api';
import { audit } from './axe';
import { pickPerson, signedIn, type Person } from './session';

/**
 * The designer edits who may start a flow (`starters`), lets the initiator approve a step
 * (`allowInitiator`) and builds nested condition groups; each one is stored as the server
 * reads it and takes effect.
 */
const admin: Person = { username: 'admin', password: 'admin123' };

async function row(
  page: Page,
  group: Locator,
  index: number,
  field: string,
  op: string,
  value: string,
) {
  const fields = group.getByRole('combobox', { name: 'Field' });
  await fields.nth(index).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(field, { exact: true }).click();
  await group.getByRole('combobox', { name: 'Operator' }).nth(index).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(op, { exact: true }).click();
  await group.getByRole('textbox', { name: 'Value' }).nth(index).fill(value);
}

test('starters, allowInitiator and nested conditions are edited, stored and applied', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const alice = await createUser(request, token, 'Alice');
  const bob = await createUser(request, token, 'Bob');
  const key = uniq('travel');
  const draft = await call<{ id: number }>(request, token, 'POST', '/api/v1/bpm/definitions', {
    key,
    name: `Travel ${key}`,
    form_mode: 'flow',
    form_schema: {
      fields: [
        { key: 'amount', label: 'Amount', type: 'amount', required: true },
        { key: 'days', label: 'Days', type: 'number', required: true },
      ],
    },
    node_tree: {
      id: 'start',
      name: 'Start',
      type: 'start',
      child: {
        id: 'size',
        name: 'By size',
        type: 'branch',
        branches: [
          {
            id: 'big',
            name: 'Big trip',
            child: {
              id: 'self',
              name: 'Self check',
              type: 'approval',
              mode: 'or',
              assignee: { type: 'users', userIds: [alice.id] },
              child: null,
            },
          },
          { id: 'other', name: 'Otherwise', default: true, child: null },
        ],
        child: null,
      },
    },
  });

  const page = await signedIn(browser, admin, `/designer/${draft.id}`);
  // The condition: amount over 1000, or (3 to 10 days).
  await page.getByTestId('designer-branch-big').click();
  const drawer = page.locator('.ant-drawer-open');
  const top = drawer.getByTestId('condition-group-1');
  await top.getByRole('radio', { name: 'any of them holds' }).first().check();
  await top.getByRole('button', { name: 'Add a comparison' }).last().click();
  await row(page, top, 0, 'Amount (amount)', '>', '1000');
  await drawer.getByTestId('add-group-1').click();
  const inner = drawer.getByTestId('condition-group-2');
  await expect(inner.getByRole('radio', { name: 'all of them hold' })).toBeChecked();
  await row(page, inner, 0, 'Days (days)', '≥', '3');
  await inner.getByRole('button', { name: 'Add a comparison' }).click();
  await row(page, inner, 1, 'Days (days)', '≤', '10');
  await page.getByTestId('drawer-apply').click();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByTestId('designer-branch-big')).toContainText(
    'Amount > ¥1,000.00 or (Days ≥ 3 and Days ≤ 10)',
  );

  // The step may be approved by the initiator herself.
  await page.getByTestId('designer-node-self').click();
  await page.getByTestId('allow-initiator').click();
  await expect(page.getByTestId('allow-initiator')).toBeChecked();
  await page.getByTestId('drawer-apply').click();

  // Only alice may start it.
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('switch', { name: 'Who may start it' })).toBeChecked();
  await page.getByRole('switch', { name: 'Who may start it' }).click();
  await expect(page.getByText('Nobody is named yet')).toBeVisible();
  await pickPerson(page, page.getByRole('combobox', { name: 'People who may start it' }), alice);
  await expect(page.getByText('Nobody is named yet')).toHaveCount(0);
  await page.getByTestId('designer-save').click();
  await expect(page.getByText('Draft saved')).toBeVisible();

  // Reloaded, the drawer shows the nested group as stored.
  await page.reload();
  await page.getByTestId('designer-branch-big').click();
  await expect(drawer.getByTestId('condition-group-2')).toBeVisible();
  await expect(
    drawer.getByTestId('condition-group-2').getByRole('textbox', { name: 'Value' }),
  ).toHaveCount(2);
  expect(await audit(page, '.ant-drawer-open')).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByTestId('designer-publish').click();
  await expect(page.getByText('Only drafts can be edited')).toBeVisible();
  await page.context().close();

  const stored = await call<{
    starters: { user_ids?: number[] };
    node_tree: { child: { branches: { condition?: unknown; child: Record<string, unknown> }[] } };
  }>(request, token, 'GET', `/api/v1/bpm/definitions/${draft.id}`);
  expect(stored.starters.user_ids).toEqual([alice.id]);
  const big = stored.node_tree.child.branches[0]!;
  expect(big.condition).toEqual({
    any: [
      { field: 'amount', op: 'gt', value: 100000 },
      {
        all: [
          { field: 'days', op: 'gte', value: 3 },
          { field: 'days', op: 'lte', value: 10 },
        ],
      },
    ],
  });
  expect(big.child.allowInitiator).toBe(true);

  // Bob is not among the starters; alice is, and a 5-day trip of 200 takes the big branch,
  // where she is the approver.
  const bobPage = await signedIn(browser, bob, '/start');
  await bobPage.waitForLoadState('networkidle');
  await expect(bobPage.getByTestId(`startable-${key}`)).toHaveCount(0);
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const startable = await call<{ list: { key: string }[] }>(
    request,
    bobApi.token,
    'GET',
    '/api/v1/bpm/startable?page_size=100',
  );
  expect(startable.list.map((d) => d.key)).not.toContain(key);
  await bobPage.context().close();
  const alicePage = await signedIn(browser, alice, '/start');
  await alicePage.getByTestId(`startable-${key}`).click();
  await alicePage.getByLabel('Amount').fill('200');
  await alicePage.getByLabel('Days').fill('5');
  await alicePage.getByRole('button', { name: 'Submit' }).click();
  await expect(alicePage).toHaveURL(/\/instances\/\d+$/);
  await expect(alicePage.getByTestId('diagram-node-self')).toHaveAttribute('data-state', 'active');
  await expect(alicePage.getByTestId('action-approve')).toBeVisible();
  await alicePage.context().close();
});
