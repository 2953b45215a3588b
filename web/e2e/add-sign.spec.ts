import { expect, test } from '@playwright/test';
import { apiLogin, chain, createUser, publishFlow, startInstance } from './api';
import { type Person, pickPerson, signedIn, submitDialog } from './session';

/** Add-sign (加签) before me: the added approver decides first, then the task comes back. */
const admin: Person = { username: 'admin', password: 'admin123' };

test('an approver adds someone before them; they approve, then the task is back', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const alice = await createUser(request, token, 'Alice');
  const bob = await createUser(request, token, 'Bob');
  const carol = await createUser(request, token, 'Carol');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [bob.id] }]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const id = await startInstance(request, aliceApi.token, flow.key, 'new laptop');

  const bobPage = await signedIn(browser, bob);
  await bobPage.getByRole('link').filter({ hasText: flow.name }).first().click();
  await bobPage.getByTestId('action-add_sign').click();
  const dialog = bobPage.getByRole('dialog');
  // An approver without any permission finds people by name in the people directory.
  await pickPerson(bobPage, dialog.getByRole('combobox', { name: 'People to add' }), carol);
  await expect(dialog.locator('.ant-select-selection-item')).toContainText(carol.nickname);
  await dialog.getByRole('radio', { name: 'Before me' }).check();
  await bobPage.getByTestId('action-comment').fill('Carol knows the laptop budget');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(bobPage.getByTestId('timeline')).toContainText('Added approvers');
  // Bob waits: no decision is offered to him now.
  await expect(bobPage.getByTestId('action-approve')).toHaveCount(0);
  await bobPage.context().close();

  const carolPage = await signedIn(browser, carol);
  await carolPage.getByRole('link').filter({ hasText: flow.name }).first().click();
  await expect(carolPage.getByTestId('instance-form')).toContainText('new laptop');
  await carolPage.getByTestId('action-approve').click();
  await submitDialog(carolPage);
  await expect(carolPage.getByTestId('timeline')).toContainText(
    `Approved · Team lead · ${carol.username}`,
  );
  await carolPage.context().close();

  const back = await signedIn(browser, bob, `/instances/${id}`);
  await back.getByTestId('action-approve').click();
  await submitDialog(back);
  await expect(back.getByText('Approved').first()).toBeVisible();
  await expect(back.getByTestId('diagram-node-lead')).toHaveAttribute('data-state', 'done');
  await back.context().close();
});
