import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiLogin, call, createUser, uniq } from './api';
import { auditThemes } from './axe';
import { choose, signedIn, submitDialog, type Person } from './session';

/**
 * The system pages (part 1): a setting created and edited with a type-fitting input; a
 * dictionary and its ordered items as a select reads them; a published notice on an ordinary
 * user's dashboard; an error text changed and restored, seen where the console shows that error
 * in the reader's language; a template edited and restored. Every page passes axe in the light
 * and the dark theme, fits a phone's width, reads in Simplified Chinese, and shows the 403 page
 * to a user without the codes.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };

/** The row of a list that holds `text`. */
const row = (page: Page, list: string, text: string) =>
  page.getByTestId(list).locator('.ant-table-row').filter({ hasText: text });

/** An answer of the API as it came, refusals included (`call` throws on those). */
async function answer(
  request: APIRequestContext,
  token: string,
  method: string,
  path: string,
  data?: unknown,
) {
  const res = await request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  return { status: res.status(), body: (await res.json()) as { code: number; message: string } };
}

test('a setting is created with a number, turned into JSON (checked before sending) and deleted', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { token } = await apiLogin(request, admin.username, admin.password);
  const key = uniq('e2e.limit.');
  const page = await signedIn(browser, admin, '/system/settings');

  await page.getByRole('button', { name: 'New setting' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Key').fill(key);
  await choose(page, 'Type', 'Number');
  await dialog.getByRole('spinbutton', { name: 'Value' }).fill('42');
  await dialog.getByLabel('Description').fill('How many at most');
  await submitDialog(page, 'Save');
  await page.getByLabel('Search by key').fill(key);
  await page.getByLabel('Search by key').press('Enter');
  await expect(page).toHaveURL(new RegExp(`keyword=${key.replace(/\./g, '\\.')}`));
  await expect(row(page, 'settings-table', key)).toContainText('42');
  await expect(row(page, 'settings-table', key)).toContainText('Number');

  // The same key again is refused on its field, not silently replaced.
  await page.getByRole('button', { name: 'New setting' }).click();
  await dialog.getByLabel('Key').fill(key);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toContainText(`The setting ${key} exists already`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // Edited into JSON: a text that does not parse is refused before anything is sent.
  await row(page, 'settings-table', key).getByRole('button', { name: 'Edit' }).click();
  await choose(page, 'Type', 'JSON');
  await dialog.getByLabel('Value').fill('{"a": [1, 2');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toContainText('Not valid JSON');
  await dialog.getByLabel('Value').fill('{"a": [1, 2], "b": true}');
  await submitDialog(page, 'Save');
  await expect(row(page, 'settings-table', key)).toContainText('{"a":[1,2],"b":true}');
  const saved = await call<{ type: string; value: unknown; description: string }>(
    request,
    token,
    'GET',
    `/api/v1/system/settings/${key}`,
  );
  expect(saved).toMatchObject({
    type: 'json',
    value: { a: [1, 2], b: true },
    description: 'How many at most',
  });

  await row(page, 'settings-table', key).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tooltip')).toContainText(`Delete the setting ${key}?`);
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'settings-table', key)).toHaveCount(0);
  expect((await answer(request, token, 'GET', `/api/v1/system/settings/${key}`)).status).toBe(404);
  await page.context().close();
});

test('a dictionary is created with ordered items, and a select reads the enabled ones in that order', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { token } = await apiLogin(request, admin.username, admin.password);
  const code = uniq('fruit.');
  const name = uniq('Fruit ');
  const page = await signedIn(browser, admin, '/system/dicts');

  await page.getByRole('button', { name: 'New dictionary' }).click();
  await page.getByRole('dialog').getByLabel('Code').fill(code);
  await page.getByRole('dialog').getByLabel('Name').fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  // A new dictionary opens in its items.
  const drawer = page.getByRole('dialog').filter({ hasText: `Items of ${name} (${code})` });
  await expect(drawer).toBeVisible();
  const item = (n: number) => drawer.getByRole('listitem', { name: `Item ${n}` });
  for (const [n, value, label] of [
    [1, 'apple', 'Apple'],
    [2, 'apple', 'Banana'],
    [3, 'cherry', 'Cherry'],
  ] as const) {
    await drawer.getByRole('button', { name: 'Add an item' }).click();
    await item(n).getByLabel('Value').fill(value);
    await item(n).getByLabel('Label', { exact: true }).fill(label);
  }
  await item(2).getByLabel('English label').fill('Banana (en)');
  await item(3).getByLabel('Enabled').click();
  // A repeated value is named on its row before anything is sent.
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(item(2)).toContainText('Another item has the value apple');
  await item(2).getByLabel('Value').fill('banana');
  // Banana goes first.
  await drawer.getByRole('button', { name: 'Move item 2 up' }).click();
  await expect(item(1).getByLabel('Value')).toHaveValue('banana');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(drawer).toHaveCount(0);
  await page.getByLabel('Search by code or name').fill(code);
  await page.getByLabel('Search by code or name').press('Enter');
  await expect(row(page, 'dicts-table', code)).toContainText('3');

  const options = await call<{ code: string; items: { value: string; label_en: string | null }[] }>(
    request,
    token,
    'GET',
    `/api/v1/system/dicts/${code}/items`,
  );
  expect(options.items).toEqual([
    { value: 'banana', label: 'Banana', label_en: 'Banana (en)' },
    { value: 'apple', label: 'Apple', label_en: null },
  ]);

  // Reopened, the items come back in their order, the disabled one switched off.
  await row(page, 'dicts-table', code).getByRole('button', { name: 'Items' }).click();
  await expect(item(1).getByLabel('Value')).toHaveValue('banana');
  await expect(item(3).getByLabel('Enabled')).not.toBeChecked();
  await drawer.getByRole('button', { name: 'Cancel' }).click();

  await row(page, 'dicts-table', code).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tooltip')).toContainText(
    `Delete the dictionary ${name} (${code}) and its 3 items?`,
  );
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'dicts-table', code)).toHaveCount(0);
  await page.context().close();
});

test('a notice published on the page shows on an ordinary user’s dashboard until withdrawn', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { token } = await apiLogin(request, admin.username, admin.password);
  const reader = await createUser(request, token, 'Reader');
  const title = uniq('Maintenance tonight ');
  const page = await signedIn(browser, admin, '/system/notices');

  await page.getByRole('button', { name: 'New notice' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Text').fill('The platform stops at 22:00 for an hour.');
  await choose(page, /^Level$/, 'Warning');
  await dialog.getByLabel('Published').click();
  await submitDialog(page, 'Save');
  await choose(page, 'Filter by level', 'Warning');
  await expect(page).toHaveURL(/level=warning/);
  await expect(row(page, 'notices-table', title)).toContainText('In effect');
  await expect(row(page, 'notices-table', title)).toContainText('Always');

  const dashboard = await signedIn(browser, reader, '/');
  await expect(dashboard.getByText(title)).toBeVisible();
  await expect(dashboard.getByText('The platform stops at 22:00 for an hour.')).toBeVisible();

  await row(page, 'notices-table', title).getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByRole('tooltip')).toContainText(`Withdraw the notice ${title}?`);
  await page.getByRole('tooltip').getByRole('button', { name: 'Withdraw' }).click();
  await expect(row(page, 'notices-table', title)).toContainText('Draft');
  await dashboard.reload();
  await expect(dashboard.getByText('Notices', { exact: true })).toBeVisible();
  await expect(dashboard.getByText(title)).toHaveCount(0);

  // Published again for a window still to come: scheduled, not on the dashboard yet. A window
  // that ends before it starts is refused on its field.
  await row(page, 'notices-table', title).getByRole('button', { name: 'Edit' }).click();
  const date = async (label: string, value: string) => {
    await dialog.getByLabel(label).fill(value);
    await dialog.getByLabel(label).press('Enter');
    await expect(dialog.getByLabel(label)).toHaveValue(value);
  };
  await date('Shown from', '2099-01-02 08:00');
  await date('Shown until', '2099-01-01 08:00');
  await dialog.getByLabel('Published').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toContainText('Must be after “Shown from”');
  await date('Shown until', '2099-01-03 08:00');
  await submitDialog(page, 'Save');
  await expect(row(page, 'notices-table', title)).toContainText('Scheduled');
  await expect(row(page, 'notices-table', title)).toContainText(/2099.* to .*2099/);
  await dashboard.reload();
  await expect(dashboard.getByText('Notices', { exact: true })).toBeVisible();
  await expect(dashboard.getByText(title)).toHaveCount(0);

  await row(page, 'notices-table', title).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tooltip')).toContainText(`Delete the notice ${title}?`);
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'notices-table', title)).toHaveCount(0);
  await dashboard.context().close();
  await page.context().close();
});

test('a changed error text shows where the console shows that error, in Chinese too, until restored', async ({
  browser,
  request,
}) => {
  // Every service reloads the texts every ERROR_TEXT_REFRESH_INTERVAL (2 s on the e2e platform).
  test.setTimeout(90_000);
  const { token } = await apiLogin(request, admin.username, admin.password);
  const code = uniq('dup.');
  await call(request, token, 'POST', '/api/v1/system/dicts', { code, name: 'Taken' });
  const conflict = () =>
    answer(request, token, 'POST', '/api/v1/system/dicts', { code, name: 'Again' });
  const text = uniq('Someone else took this first ');
  try {
    const page = await signedIn(browser, admin, '/system/error-texts?keyword=40900');
    await row(page, 'error-texts-table', '40900').getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog')).toContainText('conflict with the current state');
    await page.getByRole('dialog').getByLabel('Text', { exact: true }).fill(text);
    await submitDialog(page, 'Save');
    await expect(row(page, 'error-texts-table', '40900')).toContainText(text);
    await expect
      .poll(async () => (await conflict()).body.message, { timeout: 20_000, intervals: [500] })
      .toBe(text);

    // The same refusal, provoked on the dictionaries page in Chinese, says the new text.
    await page.evaluate(() => localStorage.setItem('approva.language', 'zh-CN'));
    const provoke = async () => {
      await page.goto('/system/dicts');
      await page.getByRole('button', { name: '新建字典' }).click();
      await page.getByRole('dialog').getByLabel('编码').fill(code);
      await page.getByRole('dialog').getByLabel('名称').fill('重复');
      // antd spaces a two-character Chinese label: "保 存".
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^保\s?存$/ })
        .click();
      return page.getByRole('dialog').getByRole('alert');
    };
    await expect(await provoke()).toHaveText(text);

    // Restored: the console's own Chinese text again.
    await page.goto('/system/error-texts?keyword=40900');
    await page.getByTestId('restore-40900').click();
    await expect(page.getByRole('tooltip')).toContainText('恢复错误 40900 的默认文本？');
    await page.getByRole('tooltip').getByRole('button', { name: '恢复默认' }).click();
    await expect(row(page, 'error-texts-table', '40900')).toContainText('默认');
    await expect
      .poll(async () => (await conflict()).body.message, { timeout: 20_000, intervals: [500] })
      .not.toBe(text);
    await expect(await provoke()).toHaveText('数据已被更改，请刷新后重试。');
    await page.context().close();
  } finally {
    await request.delete('/api/v1/system/error-texts/40900', {
      headers: { authorization: `Bearer ${token}` },
    });
  }
});

test('a template is edited (unknown placeholders refused) and restored to its default', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { token } = await apiLogin(request, admin.username, admin.password);
  const title = uniq('Please decide ');
  const page = await signedIn(browser, admin, '/system/templates?keyword=bpm.urge&lang=en-US');
  const urge = row(page, 'templates-table', 'bpm.urge');
  await expect(urge).toHaveCount(1);
  await urge.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('template-placeholders')).toContainText('{{instance_title}}');
  await dialog.getByLabel('Title').fill(title);
  await dialog
    .getByLabel('Text', { exact: true })
    .fill('Hello {{user}}, decide on {{instance_title}}.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toContainText('Not a placeholder of this template: user');
  await dialog
    .getByLabel('Text', { exact: true })
    .fill('Decide on {{ instance_title }} (#{{instance_id}}).');
  await submitDialog(page, 'Save');
  await expect(urge).toContainText(title);
  await expect(urge).toContainText('Changed');
  type Entry = { key: string; lang: string; title: string; body: string; overridden: boolean };
  const entry = async () =>
    (await call<Entry[]>(request, token, 'GET', '/api/v1/system/templates')).find(
      (e) => e.key === 'bpm.urge' && e.lang === 'en-US',
    );
  expect(await entry()).toMatchObject({
    title,
    body: 'Decide on {{ instance_title }} (#{{instance_id}}).',
    overridden: true,
  });

  await page.getByTestId('restore-bpm.urge-en-US').click();
  await expect(page.getByRole('tooltip')).toContainText(
    'Restore the default text of bpm.urge (English)?',
  );
  await page.getByRole('tooltip').getByRole('button', { name: 'Restore default' }).click();
  await expect(urge).toContainText('Default');
  await expect(urge).toContainText('Reminder');
  expect(await entry()).toMatchObject({ title: 'Reminder', overridden: false });
  await page.context().close();
});

const PAGES = [
  { path: '/system/settings', ready: 'Settings' },
  { path: '/system/dicts', ready: 'Dictionaries' },
  { path: '/system/notices', ready: 'Notices' },
  { path: '/system/error-texts', ready: 'Error texts' },
  { path: '/system/templates', ready: 'Notification templates' },
];

/** Something in each list, so the audit sees rows, not only empty states. */
async function seed(request: APIRequestContext) {
  const { token } = await apiLogin(request, admin.username, admin.password);
  await call(request, token, 'PUT', `/api/v1/system/settings/${uniq('e2e.axe.')}`, {
    type: 'boolean',
    value: true,
    description: 'Seen by the audit',
  });
  const code = uniq('axe.');
  await call(request, token, 'POST', '/api/v1/system/dicts', {
    code,
    name: 'Audited',
    items: [{ value: 'a', label: 'A' }],
  });
  await call(request, token, 'POST', '/api/v1/notices', {
    title: uniq('Audited notice '),
    body: 'Seen by the audit',
    level: 'success',
    published: false,
  });
  return code;
}

test('every system page and its forms pass axe in the light and the dark theme', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const code = await seed(request);
  const page = await signedIn(browser, admin, '/system/settings');
  for (const { path, ready } of PAGES) {
    await page.goto(path);
    await expect(page.getByText(ready, { exact: true }).first()).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    expect.soft(await auditThemes(page, 'main'), path).toEqual([]);
  }
  await page.goto('/system/settings');
  await page.getByRole('button', { name: 'New setting' }).click();
  await choose(page, 'Type', 'JSON');
  expect.soft(await auditThemes(page, '.ant-modal'), 'setting form').toEqual([]);
  await page.goto(`/system/dicts?keyword=${code}`);
  await row(page, 'dicts-table', code).getByRole('button', { name: 'Items' }).click();
  await expect(page.getByRole('listitem', { name: 'Item 1' })).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-drawer'), 'dictionary items').toEqual([]);
  await page.goto('/system/notices');
  await page.getByRole('button', { name: 'New notice' }).click();
  await expect(page.getByRole('dialog').getByLabel('Shown from')).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-modal'), 'notice form').toEqual([]);
  await page.goto('/system/templates?keyword=auth.password_reset&lang=zh-CN');
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'The default text' }).click();
  expect.soft(await auditThemes(page, '.ant-modal'), 'template form').toEqual([]);
  await page.context().close();
});

test('the system pages fit a phone’s width', async ({ browser, request }) => {
  test.setTimeout(120_000);
  await seed(request);
  const page = await signedIn(browser, admin, '/system/settings');
  await page.setViewportSize({ width: 390, height: 844 });
  for (const { path } of PAGES) {
    await page.goto(path);
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect.soft(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
  }
  await page.context().close();
});

test('the system pages read in Simplified Chinese', async ({ browser }) => {
  const page = await signedIn(browser, admin, '/system/settings');
  await page.evaluate(() => localStorage.setItem('approva.language', 'zh-CN'));
  await page.goto('/system/settings');
  await expect(page.getByRole('button', { name: '新建参数' })).toBeVisible();
  await expect(page.getByText('参数设置', { exact: true }).first()).toBeVisible();
  await page.goto('/system/notices');
  await page.getByRole('button', { name: '新建公告' }).click();
  await expect(page.getByRole('dialog').getByLabel('显示开始')).toBeVisible();
  await page.goto('/system/templates?keyword=bpm.todo');
  await expect(row(page, 'templates-table', 'bpm.todo').first()).toContainText(
    '有待用户处理的审批任务',
  );
  await page.context().close();
});

test('the navigation leads to every system page', async ({ browser }) => {
  const page = await signedIn(browser, admin, '/');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('menuitem', { name: 'System' }).click();
  for (const { path, ready } of PAGES) {
    await nav.getByRole('menuitem', { name: ready }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { name: 'No access' })).toHaveCount(0);
  }
  await page.context().close();
});

test('a user without the codes gets the 403 page on a deep link', async ({ browser, request }) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const plain = await createUser(request, token, 'Plain');
  const page = await signedIn(browser, plain, '/');
  for (const { path } of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'No access' }), path).toBeVisible();
  }
  await page.context().close();
});
