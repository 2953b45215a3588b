import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  apiLogin,
  call,
  chain,
  createRole,
  createUser,
  publishFlow,
  startInstance,
  todoTaskOf,
  type User,
} from './api';
import { auditThemes } from './axe';
import { pickPerson, signedIn, type Person } from './session';

/**
 * The approvals admin pages: a request stuck for want of approvers is repaired from the queue
 * (the approver named there) and goes on; a running one is force-terminated after a confirmation
 * naming it; the analytics page shows each chart's table; both pages pass axe in the light and
 * the dark theme, and read in Simplified Chinese.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };

/** The row of a table (by its test id) that holds `text`. */
const row = (page: Page, table: string, text: string) =>
  page.getByTestId(table).locator('.ant-table-row').filter({ hasText: text });

async function instanceStatus(request: APIRequestContext, token: string, id: number) {
  return (await call<{ status: string }>(request, token, 'GET', `/api/v1/bpm/instances/${id}`))
    .status;
}

/** A request whose only step is held by a role nobody has: it stops (suspend, the default). */
async function stuckRequest(request: APIRequestContext, token: string, initiator: User) {
  const nobody = await createRole(request, token, []);
  const flow = await publishFlow(request, token, {
    id: 'start',
    name: 'Start',
    type: 'start',
    child: {
      id: 'finance',
      name: 'Finance',
      type: 'approval',
      mode: 'or',
      assignee: { type: 'roles', roleIds: [nobody] },
      child: null,
    },
  });
  const { token: initiatorToken } = await apiLogin(request, initiator.username, initiator.password);
  const id = await startInstance(request, initiatorToken, flow.key, 'New laptop');
  expect(await instanceStatus(request, token, id)).toBe('suspended');
  return { id, flow };
}

test('a stuck request is repaired from the queue and goes on', async ({ browser, request }) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const ivy = await createUser(request, token, 'Ivy');
  const amy = await createUser(request, token, 'Amy');
  const { id, flow } = await stuckRequest(request, token, ivy);

  const page = await signedIn(browser, admin, '/approvals/instances');
  const stuck = row(page, 'stuck-table', flow.key);
  // The reason in words, the step by its name.
  await expect(stuck).toContainText('Step “Finance” found nobody to approve it.');
  await stuck.getByRole('button', { name: 'Repair' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Step “Finance” found nobody to approve it.');
  await pickPerson(page, dialog.getByLabel('Name the approvers of this step'), amy);
  await dialog.getByTestId('repair-resume').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`“${flow.name}” goes on.`)).toBeVisible();
  await expect(stuck).toHaveCount(0);

  // The repair is real: the request runs and the named approver holds its task.
  expect(await instanceStatus(request, token, id)).toBe('running');
  const { token: amyToken } = await apiLogin(request, amy.username, amy.password);
  expect(await todoTaskOf(request, amyToken, id)).toBeDefined();
  // The list shows it running, found through the filters in the URL.
  await page.goto(`/approvals/instances?keyword=${flow.key}&status=running`);
  await expect(row(page, 'instances-table', flow.key)).toContainText('Running');
  await page.context().close();
});

test('a branch node that could not decide: repaired by picking a branch, or by correcting the form', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const ivy = await createUser(request, token, 'Ivy');
  const small = await createUser(request, token, 'Small');
  const large = await createUser(request, token, 'Large');
  const step = (id: string, userId: number) => ({
    id,
    name: `Approve ${id}`,
    type: 'approval',
    mode: 'or',
    assignee: { type: 'users', userIds: [userId] },
    child: null,
  });
  // No default branch, and 2..5 days match none: the route stops there.
  const flow = await publishFlow(
    request,
    token,
    {
      id: 'start',
      name: 'Start',
      type: 'start',
      child: {
        id: 'size',
        name: 'Size',
        type: 'branch',
        branches: [
          {
            id: 'short',
            name: 'Short',
            condition: { field: 'days', op: 'lt', value: 2 },
            child: step('s', small.id),
          },
          {
            id: 'long',
            name: 'Long',
            condition: { field: 'days', op: 'gt', value: 5 },
            child: step('l', large.id),
          },
        ],
        child: null,
      },
    },
    {
      form_schema: {
        fields: [
          { key: 'reason', label: 'Reason', type: 'textarea', required: true },
          { key: 'days', label: 'Days', type: 'number', required: true },
        ],
      },
    },
  );
  const { token: ivyToken } = await apiLogin(request, ivy.username, ivy.password);
  const start = async (reason: string) =>
    (
      await call<{ id: number; status: string }>(
        request,
        ivyToken,
        'POST',
        '/api/v1/bpm/instances',
        {
          definition_key: flow.key,
          title: `${flow.key} ${reason}`,
          form: { reason, days: 3 },
        },
      )
    ).id;
  const picked = await start('picked');
  const patched = await start('patched');
  expect(await instanceStatus(request, token, picked)).toBe('suspended');
  const { token: largeToken } = await apiLogin(request, large.username, large.password);

  const page = await signedIn(browser, admin, '/approvals/instances');
  const repair = async (title: string) => {
    const line = row(page, 'stuck-table', title);
    await expect(line).toContainText('Step “Size” could not decide which branch to take.');
    await line.getByRole('button', { name: 'Repair' }).click();
    return page.getByRole('dialog');
  };
  let dialog = await repair(`${flow.key} picked`);
  await dialog.getByRole('radio', { name: 'Long' }).check();
  await dialog.getByTestId('repair-resume').click();
  await expect(dialog).toHaveCount(0);
  expect(await todoTaskOf(request, largeToken, picked)).toBeDefined();

  dialog = await repair(`${flow.key} patched`);
  await dialog.getByLabel('Days').fill('7');
  await dialog.getByTestId('repair-resume').click();
  await expect(dialog).toHaveCount(0);
  expect(await todoTaskOf(request, largeToken, patched)).toBeDefined();
  await page.context().close();
});

test('an administrator force-terminates a request after naming it', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const ivy = await createUser(request, token, 'Ivy');
  const amy = await createUser(request, token, 'Amy');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [amy.id] }]),
  );
  const { token: ivyToken } = await apiLogin(request, ivy.username, ivy.password);
  const id = await startInstance(request, ivyToken, flow.key, 'Trip');

  const page = await signedIn(browser, admin, `/approvals/instances?keyword=${flow.key}`);
  const line = row(page, 'instances-table', flow.key);
  await expect(line).toContainText('Running');
  await line.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.locator('.ant-popconfirm')).toContainText(
    `Terminate the request “${flow.name}”? It stops for good.`,
  );
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Terminate' }).click();
  await expect(line).toContainText('Terminated');
  expect(await instanceStatus(request, token, id)).toBe('terminated');
  await page.context().close();
});

test("an administrator reassigns a running request's task to someone else", async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const ivy = await createUser(request, token, 'Ivy');
  const amy = await createUser(request, token, 'Amy');
  const carol = await createUser(request, token, 'Carol');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [amy.id] }]),
  );
  const { token: ivyToken } = await apiLogin(request, ivy.username, ivy.password);
  const id = await startInstance(request, ivyToken, flow.key, 'Books');

  const page = await signedIn(browser, admin, `/approvals/instances?keyword=${flow.key}`);
  await row(page, 'instances-table', flow.key).getByRole('button', { name: 'Reassign' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Team lead · Held by Amy');
  await pickPerson(page, dialog.getByLabel('New holder'), carol);
  await dialog.getByRole('button', { name: 'Reassign' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('The task went to Carol.')).toBeVisible();
  const { token: carolToken } = await apiLogin(request, carol.username, carol.password);
  expect(await todoTaskOf(request, carolToken, id)).toBeDefined();
  await page.context().close();
});

test("all of a user's open tasks move at once; the time range filters the list", async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const ivy = await createUser(request, token, 'Ivy');
  const leaver = await createUser(request, token, 'Leaver');
  const carol = await createUser(request, token, 'Carol');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [leaver.id] }]),
  );
  const { token: ivyToken } = await apiLogin(request, ivy.username, ivy.password);
  const first = await startInstance(request, ivyToken, flow.key, 'One');
  const second = await startInstance(request, ivyToken, flow.key, 'Two');

  const page = await signedIn(browser, admin, `/approvals/instances?keyword=${flow.key}`);
  await expect(row(page, 'instances-table', flow.key)).toHaveCount(2);
  // A range that ended yesterday holds neither (the range is in the URL, as every filter).
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  await page.goto(`/approvals/instances?keyword=${flow.key}&end_time=${yesterday}`);
  await expect(page.getByText('No request matches these filters')).toBeVisible();

  await page.getByRole('button', { name: 'Reassign a user’s tasks' }).click();
  const dialog = page.getByRole('dialog');
  await pickPerson(page, dialog.getByLabel('Tasks of'), leaver);
  await pickPerson(page, dialog.getByLabel('New holder'), carol);
  await dialog.getByRole('button', { name: 'Reassign' }).click();
  await expect(dialog.getByTestId('reassign-user-result')).toContainText('2 task(s) reassigned.');
  const { token: carolToken } = await apiLogin(request, carol.username, carol.password);
  expect(await todoTaskOf(request, carolToken, first)).toBeDefined();
  expect(await todoTaskOf(request, carolToken, second)).toBeDefined();
  await page.context().close();
});

test('the analytics page shows each chart with its table', async ({ browser }) => {
  const page = await signedIn(browser, admin, '/approvals/analytics');
  const distribution = page.getByTestId('stats-distribution');
  await expect(distribution.locator('tr').filter({ hasText: 'Terminated' })).toBeVisible();
  await expect(page.getByTestId('chart-distribution').locator('svg')).toBeVisible();
  // 30 days, a week to a page, newest first.
  await expect(page.getByTestId('stats-trend').locator('.ant-table-row')).toHaveCount(7);
  await expect(
    page.getByTestId('stats-definitions').locator('.ant-table-row').first(),
  ).toBeVisible();
  await expect(page.getByTestId('stats-bottlenecks')).toBeVisible();
  await page.context().close();
});

test('the approvals admin pages pass axe in the light and the dark theme', async ({
  browser,
  request,
}) => {
  // Every page audited in both themes.
  test.setTimeout(180_000);
  const { token } = await apiLogin(request, admin.username, admin.password);
  const ivy = await createUser(request, token, 'Ivy');
  // A running request as well, so the audit sees both status tags and both action sets.
  const amy = await createUser(request, token, 'Amy');
  const running = await publishFlow(
    request,
    token,
    chain([{ id: 'a', name: 'A', users: [amy.id] }]),
  );
  const { token: ivyToken } = await apiLogin(request, ivy.username, ivy.password);
  await startInstance(request, ivyToken, running.key, 'Running');
  const { flow } = await stuckRequest(request, token, ivy);
  const page = await signedIn(browser, admin, '/approvals/instances');
  await page.goto('/approvals/instances');
  await expect(row(page, 'stuck-table', flow.key)).toBeVisible();
  await expect(row(page, 'instances-table', running.key)).toContainText('Running');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  expect.soft(await auditThemes(page, 'main'), 'instances').toEqual([]);
  await row(page, 'stuck-table', flow.key).getByRole('button', { name: 'Repair' }).click();
  await expect(
    page.getByRole('dialog').getByLabel('Name the approvers of this step'),
  ).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-modal'), 'repair dialog').toEqual([]);
  await page.goto('/approvals/analytics');
  await expect(page.getByTestId('stats-bottlenecks')).toBeVisible();
  expect.soft(await auditThemes(page, 'main'), 'analytics').toEqual([]);
  await page.context().close();
});

test('the pages read in Simplified Chinese', async ({ browser }) => {
  const page = await signedIn(browser, admin, '/approvals/instances');
  await page.evaluate(() => localStorage.setItem('approva.language', 'zh-CN'));
  await page.goto('/approvals/instances');
  await expect(page.getByText('卡住的申请', { exact: true })).toBeVisible();
  await expect(page.getByText('全部申请', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: '转办某人的全部待办' })).toBeVisible();
  await page.goto('/approvals/analytics');
  await expect(page.getByText('各状态申请数', { exact: true })).toBeVisible();
  await expect(page.getByText('耗时最长的十个步骤', { exact: true })).toBeVisible();
  await page.context().close();
});
