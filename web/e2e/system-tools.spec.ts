import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiLogin, call, uniq } from './api';
import { auditThemes } from './axe';
import { fitsTheScreen } from './screen';
import { signedIn, submitDialog, type Person } from './session';

/**
 * The system tools pages: a tenant administrator uploads a file through the files page, sees it
 * listed with its uploader and the storage usage grow against the quota, opens it through a
 * fresh link, meets the quota and a held file's refusal in words, and deletes it; a platform
 * administrator registers an OAuth2 client (field errors on their field), sees its secret once
 * with a copy button, rotates it (the old secret stops working), and deletes the client; the
 * code generator previews a described table's files, with the server's problems on the column
 * that has them; a non-platform user gets the 403 page. Every page passes axe in both themes,
 * reads in Simplified Chinese and fits a phone's width.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };
const PASSWORD = 'Quiet-Harbor-Lantern-42';
const MIB = 1024 * 1024;

/** A tenant with a 5 MiB quota and its administrator, who holds every code but no platform role. */
async function quotaTenant(request: APIRequestContext) {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const code = uniq('tq');
  const username = uniq('boss');
  const initial = 'Amber-Lantern-Quay-71';
  await call(request, token, 'POST', '/api/v1/tenants', {
    code,
    name: `Tenant ${code}`,
    admin_username: username,
    admin_password: initial,
    storage_quota_mb: 5,
  });
  const login = await request.post('/api/v1/login', {
    data: { username, password: initial, tenant_code: code },
  });
  const own = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  await call(request, own, 'POST', '/api/v1/me/password', {
    old_password: initial,
    new_password: PASSWORD,
  });
  return { code, username };
}

/** Signs in on the sign-in page with a tenant code. */
async function signedInTenant(
  browser: Browser,
  who: { code: string; username: string },
  path: string,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Tenant code').fill(who.code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  return page;
}

/** Picks a file through the upload button's file chooser. */
async function pick(page: Page, name: string, mimeType: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('upload-file').click();
  await (await chooser).setFiles({ name, mimeType, buffer });
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

let tenant: { code: string; username: string };

test.beforeAll(async ({ request }) => {
  tenant = await quotaTenant(request);
});

test('a file is uploaded, listed with its uploader, opened, refused over quota, held, and deleted', async ({
  browser,
}) => {
  const page = await signedInTenant(browser, tenant, '/system/files');
  const usage = page.getByTestId('storage-usage');
  await expect(usage).toContainText('0 B of 5 MB used (0 %)');
  await expect(page.getByText('No file has been uploaded yet')).toBeVisible();

  const name = `${uniq('scan')}.png`;
  await pick(page, name, 'image/png', Buffer.alloc(Math.round(1.5 * MIB), 7));
  await expect(page.getByText(`${name} was uploaded.`)).toBeVisible();
  const row = page.getByTestId('files-table').locator('.ant-table-row').filter({ hasText: name });
  await expect(row).toContainText('1.5 MB');
  await expect(row).toContainText('image/png');
  await expect(row).toContainText('Administrator');
  await expect(usage).toContainText('1.5 MB of 5 MB used (30 %)');
  await expect(usage.getByRole('progressbar', { name: 'Storage used' })).toBeVisible();

  // Opened through a link signed on the click.
  const popup = page.waitForEvent('popup');
  await row.getByRole('button', { name, exact: true }).click();
  await expect(await popup).toHaveURL(/\/uploads\/[0-9a-f]{32}\?expires=\d+&sig=[0-9a-f]+$/);
  await (await popup).close();

  // One that does not fit the quota is refused, naming the file and the quota.
  await pick(page, 'big.bin', 'application/octet-stream', Buffer.alloc(4 * MIB, 1));
  await expect(page.getByTestId('files-problem')).toContainText(
    'big.bin was not uploaded: it would exceed the storage quota of 5 MB.',
  );
  await expect(usage).toContainText('1.5 MB of 5 MB used');

  // A file a running request holds: the server's 409, as the page says it (answered here; the
  // refusal itself is the files service's test).
  await page.route('**/api/v1/files/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 40900,
            message: 'the file is attached to a live request',
            data: null,
          }),
        })
      : route.fallback(),
  );
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tooltip')).toContainText(`Delete the file ${name}?`);
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('files-problem')).toContainText(
    `${name} was not deleted: it is attached to an approval request that is still running.`,
  );
  await expect(row).toBeVisible();
  await page.unroute('**/api/v1/files/*');

  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} was deleted.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(usage).toContainText('0 B of 5 MB used (0 %)');
  await page.context().close();
});

test('an OAuth2 client is registered, its secret shown once and rotated, and it is deleted', async ({
  browser,
  request,
}) => {
  const page = await signedIn(browser, admin, '/system/oauth-clients');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = uniq('Reports ');
  await page.getByRole('button', { name: 'New client' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('checkbox', { name: 'Client credentials' }).check();
  await dialog
    .getByLabel('Redirect URIs')
    .fill('https://reports.example.com/cb\njavascript:alert(1)');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // The server's problem with the second URI, on the field, naming its line.
  await expect(dialog.locator('.ant-form-item').filter({ hasText: 'Redirect URIs' })).toContainText(
    'Line 2: scheme javascript: is not allowed',
  );
  await dialog.getByLabel('Redirect URIs').fill('https://reports.example.com/cb');
  await dialog.getByRole('button', { name: 'Save' }).click();

  // The secret, once, with the warning and a copy button, in place of the form.
  const shown = page.getByRole('dialog').filter({ hasText: 'The secret of' });
  await expect(shown).toContainText(`The secret of ${name}`);
  await expect(shown).toContainText('Copy the secret now: you will not see it again.');
  const clientId = (await shown.getByTestId('secret-client-id').textContent()) ?? '';
  const secret = (await shown.getByTestId('client-secret').textContent()) ?? '';
  expect(clientId).toMatch(/^c_[0-9a-f]+$/);
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Copy the secret' }).click();
  await expect.poll(() => clipboard(page)).toBe(secret);
  const token = async (s: string) =>
    (
      await request.post('/api/v1/oauth2/token', {
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${s}`).toString('base64')}` },
        form: { grant_type: 'client_credentials', scope: 'api' },
      })
    ).status();
  expect(await token(secret)).toBe(200);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Not shown again: not on the page, not after a reload.
  const row = page
    .getByTestId('oauth-clients-table')
    .locator('.ant-table-row')
    .filter({ hasText: name });
  await expect(row).toContainText(clientId);
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  // Edit: the name changes in the list.
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog').getByRole('switch')).toBeDisabled();
  await page.getByRole('dialog').getByLabel('Name').fill(`${name} v2`);
  await submitDialog(page, 'Save');
  const renamed = page
    .getByTestId('oauth-clients-table')
    .locator('.ant-table-row')
    .filter({ hasText: `${name} v2` });
  await expect(renamed).toBeVisible();

  // Rotate, confirmed by name: a new secret, once; the old one stops working.
  await renamed.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByRole('tooltip')).toContainText(
    `Rotate the secret of ${name} v2? The current secret stops working at once`,
  );
  await page.getByRole('tooltip').getByRole('button', { name: 'Rotate' }).click();
  const rotated = page.getByRole('dialog');
  await expect(rotated).toContainText('you will not see it again');
  const second = (await rotated.getByTestId('client-secret').textContent()) ?? '';
  expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(second).not.toBe(secret);
  expect(await token(secret)).toBe(401);
  expect(await token(second)).toBe(200);
  await rotated.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByText(second)).toHaveCount(0);

  // Delete, confirmed by name.
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tooltip')).toContainText(
    `Delete the client ${name} v2? Every token issued to it stops working.`,
  );
  await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} v2 was deleted.`)).toBeVisible();
  await expect(renamed).toHaveCount(0);
  expect(await token(second)).toBe(401);
  await page.context().close();
});

/** Fills the description of a table: service, entity and the columns' names and types. */
async function describeTable(page: Page, service: string) {
  await page.getByLabel('Service').fill(service);
  await page.getByLabel('Entity').fill('customer');
  await page.getByTestId('add-column').click();
  await page.locator('#columns_1_name').fill('Level');
  await pickType(page, 1, 'Integer');
}

/** Picks a column's type in its select (found by the id the form gives it). */
async function pickType(page: Page, index: number, option: string) {
  const box = page.locator(`#columns_${index}_type`);
  const list = page.locator(`.ant-select-dropdown:visible:has([id="columns_${index}_type_list"])`);
  const select = page.getByTestId(`column-${index}`).locator('.ant-select');
  await expect(async () => {
    if (!(await list.isVisible())) await box.click({ timeout: 2000 });
    await list.getByTitle(option, { exact: true }).first().click({ timeout: 2000 });
    await expect(select).toContainText(option, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

test('the code generator previews a described table, with problems on their column', async ({
  browser,
}) => {
  const page = await signedIn(browser, admin, '/system/codegen');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The e2e platform does not write (CODEGEN_WRITE_ENABLED is off): no write button, and why.
  await expect(page.getByTestId('codegen-write-off')).toContainText('Writing is turned off');
  await expect(page.getByTestId('codegen-write')).toHaveCount(0);

  const service = uniq('crm')
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 20);
  await describeTable(page, service);
  // A third column of a type that cannot be searched, moved up, then removed.
  await page.getByTestId('add-column').click();
  await page.locator('#columns_2_name').fill('score');
  await pickType(page, 2, 'Number');
  await expect(
    page.getByTestId('column-2').getByRole('checkbox', { name: 'Searchable' }),
  ).toBeDisabled();
  await page.getByRole('button', { name: 'Move column 3 up' }).click();
  await expect(page.locator('#columns_1_name')).toHaveValue('score');
  await page.getByRole('button', { name: 'Remove column 2' }).click();
  await expect(page.locator('#columns_1_name')).toHaveValue('Level');

  // The server's problem lands on the column's name.
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('column-1')).toContainText('snake_case');
  await page.locator('#columns_1_name').fill('level');
  await page.getByRole('button', { name: 'Preview' }).click();

  const preview = page.getByTestId('codegen-preview');
  await expect(preview).toContainText('Generated files (11)');
  const files = preview.getByTestId('generated-files');
  await expect(
    files.getByRole('button', { name: `src/services/${service}/index.ts` }),
  ).toHaveAttribute('aria-current', 'true');
  await expect(preview.getByTestId('generated-code')).toContainText('defaultPort');
  const migration = files.getByRole('button', {
    name: new RegExp(`migrations/\\d+_${service}_customers\\.sql$`),
  });
  await migration.click();
  await expect(preview.getByTestId('generated-code')).toContainText(
    `CREATE TABLE ${service}_customers (`,
  );
  await preview.getByTestId('copy-file').click();
  await expect.poll(() => clipboard(page)).toContain(`CREATE TABLE ${service}_customers (`);
  await page.context().close();
});

test('a user who is no platform administrator gets the 403 page on the OAuth2 clients and the code generator', async ({
  browser,
}) => {
  const page = await signedInTenant(browser, tenant, '/system/oauth-clients');
  await expect(page.getByTestId('forbidden-page')).toBeVisible();
  await expect(page.getByTestId('oauth-clients-table')).toHaveCount(0);
  await page.goto('/system/codegen');
  await expect(page.getByTestId('forbidden-page')).toBeVisible();
  await page.context().close();
});

/** A confidential client registered through the API, so the clients' list has a row. */
async function registerClient(request: APIRequestContext) {
  const { token } = await apiLogin(request, admin.username, admin.password);
  await call(request, token, 'POST', '/api/v1/oauth2/clients', {
    name: uniq('Listed '),
    grant_types: ['authorization_code', 'refresh_token'],
    redirect_uris: ['https://listed.example.com/cb'],
  });
}

/** Each page, ready to be audited, with something on it (a row, a preview). */
async function visitEach(
  page: Page,
  visit: (path: string, ready: () => Promise<void>) => Promise<void>,
) {
  await visit('/system/files', async () => {
    await expect(page.getByTestId('storage-usage')).toBeVisible();
  });
  await visit('/system/oauth-clients', async () => {
    await expect(
      page.getByTestId('oauth-clients-table').locator('.ant-table-row').first(),
    ).toBeVisible();
  });
  await visit('/system/codegen', async () => {
    await page.getByLabel('Service').fill('axecheck');
    await page.getByLabel('Entity').fill('thing');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('generated-code')).toBeVisible();
    // Audited as it is read, not with the pointer still over the button (its hover colour).
    await page.mouse.move(0, 0);
  });
}

test('the files, OAuth2 clients and code generator pages pass axe in the light and the dark theme', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  await registerClient(request);
  const page = await signedIn(browser, admin, '/system/files');
  await visitEach(page, async (path, ready) => {
    await page.goto(path);
    await ready();
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    expect.soft(await auditThemes(page, 'main'), path).toEqual([]);
  });
  // The dialogs: the client form, and a secret (a rotation of the client made above).
  await page.goto('/system/oauth-clients');
  await page.getByRole('button', { name: 'New client' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-modal'), 'client form').toEqual([]);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = page.getByTestId('oauth-clients-table').locator('.ant-table-row').first();
  await row.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Rotate' }).click();
  await expect(page.getByTestId('client-secret')).toBeVisible();
  expect.soft(await auditThemes(page, '.ant-modal'), 'secret').toEqual([]);
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.context().close();
});

test('the pages read in Simplified Chinese', async ({ browser }) => {
  const page = await signedIn(browser, admin, '/system/files');
  await page.evaluate(() => localStorage.setItem('approva.language', 'zh-CN'));
  await page.goto('/system/files');
  await expect(page.getByText('文件', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('storage-usage')).toContainText('存储空间');
  await expect(page.getByRole('button', { name: /上传文件/ })).toBeVisible();
  await page.goto('/system/oauth-clients');
  await expect(page.getByRole('button', { name: '新建客户端' })).toBeVisible();
  await page.goto('/system/codegen');
  await expect(page.getByText('代码生成', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('codegen-write-off')).toContainText('此服务器未开启写入');
  await page.getByRole('button', { name: /预\s?览/ }).click();
  await expect(page.getByText('请填写服务名')).toBeVisible();
  await page.context().close();
});

test('the pages fit a phone’s width', async ({ browser, request }) => {
  await registerClient(request);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto('/system/files');
  await page.getByLabel('Username').fill(admin.username);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('storage-usage')).toBeVisible();
  await visitEach(page, async (path, ready) => {
    await page.goto(path);
    await ready();
    await fitsTheScreen(page);
  });
  await context.close();
});
