import { expect, test, type Page } from '@playwright/test';
import {
  apiLogin,
  call,
  chain,
  createUser,
  publishFlow,
  startInstance,
  todoTaskOf,
  uniq,
  type User,
} from './api';
import { audit } from './axe';
import { choose as chooseIn, pickPerson, signedIn, type Person } from './session';

/**
 * Approvals that follow people: an approver sets out of office in the profile and their open
 * task moves to the stand-in, who holds it on their behalf; an initiator picks the approver of
 * a request by name in a Person field; the designer stores the new field and step settings.
 */
test.describe.configure({ mode: 'serial' });

/** Picks an option of the select labelled `label` (the whole label, after a required mark). */
async function choose(page: Page, label: string, option: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await chooseIn(page, new RegExp(`^(\\* )?${escaped}$`), option);
}

const admin: Person = { username: 'admin', password: 'admin123' };
let alice: User;
let bob: User;
let carol: User;
let dave: User;

test.beforeAll(async ({ request }) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  alice = await createUser(request, token, 'Alice');
  bob = await createUser(request, token, 'Bob');
  carol = await createUser(request, token, 'Carol');
  dave = await createUser(request, token, 'Dave');
});

let flow: { id: number; key: string; name: string };
let moved: number;

test('an approver sets out of office in the profile and sees it active; their open task moves to the stand-in', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [bob.id] }]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  moved = await startInstance(request, aliceApi.token, flow.key, 'conference trip');

  const page = await signedIn(browser, bob, '/profile');
  const card = page.getByTestId('out-of-office');
  await expect(card.getByText('You are not marked as out of office.')).toBeVisible();
  expect.soft(await audit(page)).toEqual([]);
  await card.getByRole('button', { name: 'Set out of office' }).click();
  // The period starts now and ends tomorrow evening unless changed.
  await pickPerson(page, card.getByRole('combobox', { name: 'Stand-in' }), carol);
  const chosen = card.locator('.ant-select', {
    has: page.getByRole('combobox', { name: 'Stand-in' }),
  });
  await expect(chosen).toContainText(carol.nickname);
  await card.getByRole('switch', { name: 'Also move my open tasks' }).click();
  await card.getByLabel('Comment').fill('Summer holiday');
  expect.soft(await audit(page)).toEqual([]);
  await card.getByRole('button', { name: 'Save' }).click();

  await expect(card.getByTestId('out-of-office-moved')).toHaveText(
    'Saved. 1 open task was moved to your stand-in.',
  );
  await expect(card.getByTestId('out-of-office-state')).toHaveText('Active now');
  await expect(card.getByTestId('out-of-office-stand-in')).toHaveText(carol.nickname);
  // Stored: still active after a reload, in Chinese too.
  await page.reload();
  await expect(card.getByTestId('out-of-office-state')).toHaveText('Active now');
  await expect(card.getByText('Summer holiday')).toBeVisible();
  await page.getByTestId('language-switch').click();
  await page.getByTitle('简体中文').click();
  await expect(card.getByTestId('out-of-office-state')).toHaveText('生效中');
  await page.context().close();
});

test('the stand-in holds the moved task and a new one on behalf of the person away', async ({
  browser,
  request,
}) => {
  // A request started while Bob is away goes to Carol at once, on his behalf.
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const second = await startInstance(request, aliceApi.token, flow.key, 'new laptop');
  const carolApi = await apiLogin(request, carol.username, carol.password);
  const todo = await call<{ list: { instance_id: number; on_behalf_of_id: number | null }[] }>(
    request,
    carolApi.token,
    'GET',
    '/api/v1/bpm/tasks/todo?page_size=100',
  );
  expect(todo.list.find((t) => t.instance_id === second)?.on_behalf_of_id).toBe(bob.id);

  // Both requests wait for Carol, tagged in her to-do list.
  const page = await signedIn(browser, carol);
  const rows = page
    .locator('.ant-table-row')
    .filter({ has: page.getByRole('link', { name: new RegExp(flow.name) }) });
  await expect(rows).toHaveCount(2);
  await expect(rows.getByTestId('on-behalf-of')).toHaveText([
    `on behalf of ${bob.nickname}`,
    `on behalf of ${bob.nickname}`,
  ]);
  await page.goto(`/tasks/${await todoTaskOf(request, carolApi.token, moved)}`);
  await expect(page.getByTestId('on-behalf-of')).toContainText(`On behalf of ${bob.nickname}`);
  const standIn = page.getByTestId('timeline-stand_in');
  await expect(standIn).toContainText(`${bob.nickname} is out of office until`);
  await expect(standIn).toContainText(`${carol.nickname} acts on their behalf`);
  expect.soft(await audit(page)).toEqual([]);
  await page.context().close();
});

test('back at work, the approver clears it', async ({ browser }) => {
  const page = await signedIn(browser, bob, '/profile');
  const card = page.getByTestId('out-of-office');
  await card.getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Clear' }).click();
  await expect(card.getByText('You are not marked as out of office.')).toBeVisible();
  await page.context().close();
});

test('an initiator picks the approver of a request by name in a Person field', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const flow = await publishFlow(
    request,
    token,
    {
      id: 'start',
      name: 'Start',
      type: 'start',
      child: {
        id: 'chosen',
        name: 'Chosen approver',
        type: 'approval',
        mode: 'or',
        assignee: { type: 'form_user', field: 'approver' },
        child: null,
      },
    },
    {
      form_schema: {
        fields: [
          { key: 'reason', label: 'Reason', type: 'textarea', required: true },
          { key: 'approver', label: 'Approver', type: 'user', required: true },
        ],
      },
    },
  );

  const page = await signedIn(browser, alice, '/start');
  await page.getByTestId(`startable-${flow.key}`).click();
  await page.getByLabel('Reason').fill('team offsite');
  // Without a Person the form says so, as the server would.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Approver is required')).toBeVisible();
  await pickPerson(page, page.getByRole('combobox', { name: 'Approver' }), dave);
  expect.soft(await audit(page)).toEqual([]);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/instances\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  // The form shows the person by name, and the step went to them.
  await expect(page.getByTestId('instance-form')).toContainText(dave.nickname);
  await expect(page.getByTestId('diagram-node-chosen')).toContainText(dave.nickname);
  await page.context().close();

  const daveApi = await apiLogin(request, dave.username, dave.password);
  expect(await todoTaskOf(request, daveApi.token, id)).toBeGreaterThan(0);
});

test('the designer stores a Person field, approvers from it, an escalating deadline and the resubmit deadline', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const key = uniq('people');
  const draft = await call<{ id: number }>(request, token, 'POST', '/api/v1/bpm/definitions', {
    key,
    name: `People ${key}`,
    form_mode: 'flow',
    form_schema: { fields: [{ key: 'approver', label: 'Approver', type: 'input' }] },
    node_tree: chain([{ id: 'pick', name: 'Picked', users: [bob.id] }]),
  });

  const page = await signedIn(browser, admin, `/designer/${draft.id}`);
  await page.getByRole('tab', { name: 'Form' }).click();
  await page.getByTestId('field-type-0').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('Person').click();
  await page.getByRole('checkbox', { name: 'Required' }).first().check();

  await page.getByRole('tab', { name: 'Flow' }).click();
  await page.getByTestId('designer-node-pick').click();
  const drawer = page.locator('.ant-drawer-open');
  await choose(page, 'Approvers', 'Person from a form field');
  await choose(page, 'Person field', 'Approver');
  await drawer.getByRole('switch', { name: 'Time limit' }).click();
  await choose(page, 'Then', 'Escalate to the department leader');
  await drawer.getByLabel('Then every (hours)').fill('12');
  await choose(page, 'At the top of the tree', 'Approve automatically');
  expect.soft(await audit(page, '.ant-drawer-open')).toEqual([]);
  await drawer.getByTestId('drawer-apply').click();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByTestId('deadline-pick')).toHaveText(
    'After 24 h: escalate, a level every 12 h; at the top: Approve automatically',
  );

  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('switch', { name: 'Time limit to resubmit' }).click();
  await choose(page, 'Then', 'Cancel the request');
  await page.getByTestId('designer-publish').click();
  await expect(page.getByText('Only drafts can be edited')).toBeVisible();
  await expect(page.getByTestId('designer-error')).toHaveCount(0);
  await page.context().close();

  const stored = await call<{
    form_schema: { fields: { key: string; type: string; required?: boolean }[] };
    node_tree: { resubmitTimeout?: unknown; child: Record<string, unknown> };
  }>(request, token, 'GET', `/api/v1/bpm/definitions/${draft.id}`);
  expect(stored.form_schema.fields[0]).toMatchObject({
    key: 'approver',
    type: 'user',
    required: true,
  });
  expect(stored.node_tree.resubmitTimeout).toEqual({ hours: 72, action: 'cancel' });
  expect(stored.node_tree.child.assignee).toEqual({ type: 'form_user', field: 'approver' });
  expect(stored.node_tree.child.timeout).toEqual({
    hours: 24,
    action: 'escalate',
    repeatEveryHours: 12,
    finalAction: 'auto_approve',
  });
});
