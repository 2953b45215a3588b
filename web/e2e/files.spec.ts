import { expect, test, type Page } from '@playwright/test';
import { apiLogin, call, chain, createUser, publishFlow, todoTaskOf, uniq, type User } from './api';
import { audit } from './axe';
import { choose, type Person, signedIn, submitDialog } from './session';

/**
 * BPM file fields: an administrator adds a required File field taking PDFs in the designer; an
 * initiator uploads a PDF through the start form (a refused type says why) and submits; the
 * approver sees the file by name in the task and its link serves the very bytes uploaded.
 */
test.describe.configure({ mode: 'serial' });

const admin: Person = { username: 'admin', password: 'admin123' };
let alice: User;
let bob: User;
let flow: { id: number; key: string; name: string };
let instanceId: number;

/** A small PDF whose bytes name this run, to compare with what the link serves. */
const marker = uniq('pdf');
const PDF = Buffer.from(
  `%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${marker}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
);

/** Picks files through the browser's file chooser, as a person does with the button. */
async function pickFiles(
  page: Page,
  button: string,
  files: { name: string; mimeType: string; buffer: Buffer }[],
) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(files);
}

test.beforeAll(async ({ request }) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  alice = await createUser(request, token, 'Alice');
  bob = await createUser(request, token, 'Bob');
});

test('an administrator adds a required File field taking PDFs in the designer', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const key = uniq('files');
  const draft = await call<{ id: number }>(request, token, 'POST', '/api/v1/bpm/definitions', {
    key,
    name: `Files ${key}`,
    form_mode: 'flow',
    form_schema: { fields: [{ key: 'reason', label: 'Reason', type: 'input', required: true }] },
    node_tree: chain([{ id: 'review', name: 'Review', users: [bob.id] }]),
  });
  flow = { id: draft.id, key, name: `Files ${key}` };

  const page = await signedIn(browser, admin, `/designer/${draft.id}`);
  await page.getByRole('tab', { name: 'Form' }).click();
  await page.getByTestId('add-field').click();
  await page.getByTestId('field-key-1').fill('att');
  await page.getByTestId('field-label-1').fill('Attachments');
  await page.getByTestId('field-type-1').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('File', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Required' }).nth(1).check();
  await page.getByLabel('At most').fill('2');
  await choose(page, 'Accepted types', 'PDF');
  await page.getByRole('combobox', { name: 'Accepted types' }).blur();
  expect.soft(await audit(page)).toEqual([]);
  await page.getByTestId('designer-publish').click();
  await expect(page.getByText('Only drafts can be edited')).toBeVisible();
  await expect(page.getByTestId('designer-error')).toHaveCount(0);
  await page.context().close();

  // Stored as the server takes it: the file attributes on the file field only.
  const stored = await call<{ status: string; form_schema: { fields: unknown[] } }>(
    request,
    token,
    'GET',
    `/api/v1/bpm/definitions/${draft.id}`,
  );
  expect(stored.status).toBe('published');
  expect(stored.form_schema.fields).toEqual([
    { key: 'reason', label: 'Reason', type: 'input', required: true },
    {
      key: 'att',
      label: 'Attachments',
      type: 'file',
      required: true,
      maxCount: 2,
      accept: ['application/pdf'],
    },
  ]);
});

test('an initiator uploads a PDF through the start form (another type is refused) and submits', async ({
  browser,
}) => {
  const page = await signedIn(browser, alice, '/start');
  await page.getByTestId(`startable-${flow.key}`).click();
  await page.getByLabel('Reason').fill('signed contract');
  // The input offers PDFs only.
  await expect(page.locator('input[type=file]')).toHaveAttribute('accept', 'application/pdf');
  // Required, as the server would say.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Attachments is required')).toBeVisible();

  await pickFiles(page, 'Choose files for Attachments', [
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain words') },
  ]);
  await expect(page.getByRole('alert').filter({ hasText: 'notes.txt' })).toHaveText(
    'notes.txt is not an accepted type (application/pdf)',
  );
  await expect(page.locator('.ant-upload-list-item')).toHaveCount(0);

  await pickFiles(page, 'Choose files for Attachments', [
    { name: 'contract.pdf', mimeType: 'application/pdf', buffer: PDF },
  ]);
  await expect(page.locator('.ant-upload-list-item-done')).toHaveCount(1);
  await expect(page.locator('.ant-upload-list-item-done')).toContainText('contract.pdf');
  // Read as the page rests (the pointer off the button it clicked: antd's hover blue is the theme's).
  await page.mouse.move(0, 0);
  expect.soft(await audit(page)).toEqual([]);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/instances\/\d+$/);
  instanceId = Number(new URL(page.url()).pathname.split('/').pop());
  // The initiator reads their own request's file too.
  await expect(
    page.getByTestId('instance-form').getByRole('link', { name: 'Download contract.pdf' }),
  ).toBeVisible();
  await page.context().close();
});

test('the approver sees the file by name and its link serves the uploaded bytes', async ({
  browser,
  request,
}) => {
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const taskId = await todoTaskOf(request, bobApi.token, instanceId);
  const page = await signedIn(browser, bob, `/tasks/${taskId}`);
  const form = page.getByTestId('instance-form');
  const link = form.getByRole('link', { name: 'Download contract.pdf' });
  await expect(link).toHaveText('contract.pdf');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(form).toContainText(`${PDF.length} B · application/pdf`);
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/uploads\/[0-9a-f]+\?expires=\d+&sig=[0-9a-f]+$/);
  // The link, fetched as the page would follow it, answers the bytes the initiator sent.
  const served = await page.evaluate(async (url) => {
    const res = await fetch(url);
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      bytes: Array.from(new Uint8Array(await res.arrayBuffer())),
    };
  }, href!);
  expect(served.status).toBe(200);
  expect(served.type).toContain('application/pdf');
  expect(Buffer.from(served.bytes).equals(PDF)).toBe(true);
  expect.soft(await audit(page)).toEqual([]);

  await page.getByTestId('action-approve').click();
  await submitDialog(page);
  await page.context().close();
});

test('an approver editing the field keeps the initiator’s file and adds their own', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const edited = await publishFlow(
    request,
    token,
    chain([{ id: 'review', name: 'Review', users: [bob.id], editableFields: ['att'] }]),
    {
      form_schema: {
        fields: [
          {
            key: 'att',
            label: 'Attachments',
            type: 'file',
            required: true,
            maxCount: 2,
            accept: ['application/pdf'],
          },
        ],
      },
    },
  );
  // Alice uploads and starts through the API, as any client would.
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const upload = await request.post('/api/v1/files', {
    headers: { authorization: `Bearer ${aliceApi.token}` },
    multipart: { file: { name: 'quote.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  expect(upload.status()).toBe(200);
  const quote = ((await upload.json()) as { data: { id: number } }).data.id;
  const started = await call<{ id: number }>(
    request,
    aliceApi.token,
    'POST',
    '/api/v1/bpm/instances',
    {
      definition_key: edited.key,
      form: { att: [quote] },
    },
  );

  const bobApi = await apiLogin(request, bob.username, bob.password);
  const page = await signedIn(
    browser,
    bob,
    `/tasks/${await todoTaskOf(request, bobApi.token, started.id)}`,
  );
  await page.getByTestId('action-approve').click();
  const dialog = page.getByRole('dialog');
  // The initiator's file is there by name; one more fits.
  await expect(dialog.locator('.ant-upload-list-item-done')).toHaveText(['quote.pdf']);
  await pickFiles(page, 'Choose files for Attachments', [
    { name: 'review-notes.pdf', mimeType: 'application/pdf', buffer: PDF },
  ]);
  await expect(dialog.locator('.ant-upload-list-item-done')).toHaveCount(2);
  // Full: no button to add a third.
  await expect(dialog.getByRole('button', { name: 'Choose files for Attachments' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await page.context().close();

  const detail = await call<{ form: { att: number[] }; files: Record<string, { name: string }[]> }>(
    request,
    aliceApi.token,
    'GET',
    `/api/v1/bpm/instances/${started.id}`,
  );
  expect(detail.form.att).toHaveLength(2);
  expect(detail.form.att[0]).toBe(quote);
  expect(detail.files.att!.map((f) => f.name)).toEqual(['quote.pdf', 'review-notes.pdf']);
});
