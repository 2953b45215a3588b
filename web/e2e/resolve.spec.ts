import { expect, test } from '@playwright/test';
import { apiLogin, call, chain, createUser, publishFlow, startInstance, todoTaskOf } from './api';
import { type Person, signedIn, submitDialog } from './session';

/** Delegation and its end: the delegatee hands the task back (resolve), the owner decides. */
const admin: Person = { username: 'admin', password: 'admin123' };

test('the delegatee hands the task back and the owner approves it', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, admin.username, admin.password);
  const alice = await createUser(request, token, 'Alice');
  const bob = await createUser(request, token, 'Bob');
  const dave = await createUser(request, token, 'Dave');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Team lead', users: [bob.id] }]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const id = await startInstance(request, aliceApi.token, flow.key, 'team dinner');
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const task = await todoTaskOf(request, bobApi.token, id);
  await call(request, bobApi.token, 'POST', `/api/v1/bpm/tasks/${task}/delegate`, {
    to_user_id: dave.id,
  });

  const davePage = await signedIn(browser, dave);
  await davePage.getByRole('link').filter({ hasText: flow.name }).first().click();
  // A delegated task offers only the hand-back.
  await expect(davePage.getByTestId('action-approve')).toHaveCount(0);
  await davePage.getByTestId('action-resolve').click();
  await davePage.getByTestId('action-comment').fill('Checked the receipts');
  await submitDialog(davePage);
  await expect(davePage.getByTestId('timeline')).toContainText('Handed back');
  await expect(davePage.getByTestId('timeline')).toContainText('Checked the receipts');
  await davePage.context().close();

  const bobPage = await signedIn(browser, bob);
  await bobPage.getByRole('link').filter({ hasText: flow.name }).first().click();
  await bobPage.getByTestId('action-approve').click();
  await submitDialog(bobPage);
  await expect(bobPage.getByTestId('diagram-node-lead')).toHaveAttribute('data-state', 'done');
  await bobPage.context().close();
});
