import { expect, test, type Page } from '@playwright/test';
import { apiLogin, call, chain, createUser, publishFlow, startInstance } from './api';
import { type Person, signedIn, submitDialog } from './session';

/**
 * Returns: the second approver sends the request back to the previous step, that approver
 * returns it to the initiator, and the initiator corrects the form and resubmits it.
 */
const admin: Person = { username: 'admin', password: 'admin123' };

async function act(page: Page, action: string, comment: string) {
  await page.getByTestId(`action-${action}`).click();
  await page.getByTestId('action-comment').fill(comment);
  await submitDialog(page);
}

test('return to the previous step, then to the initiator, who resubmits', async ({
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
    chain([
      { id: 'first', name: 'Team lead', users: [bob.id] },
      { id: 'second', name: 'Finance', users: [carol.id], allowBackPrev: true },
    ]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const id = await startInstance(request, aliceApi.token, flow.key, 'printer paper');
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const [bobTask] = (
    await call<{ list: { id: number; instance_id: number }[] }>(
      request,
      bobApi.token,
      'GET',
      '/api/v1/bpm/tasks/todo',
    )
  ).list.filter((t) => t.instance_id === id);
  await call(request, bobApi.token, 'POST', `/api/v1/bpm/tasks/${bobTask!.id}/approve`, {});

  // Carol sends it back to the step before hers; the comment is required.
  const carolPage = await signedIn(browser, carol);
  await carolPage.getByRole('link').filter({ hasText: flow.name }).first().click();
  await expect(carolPage.getByTestId('instance-initiator')).toHaveText(alice.username);
  await carolPage.getByTestId('action-return_previous').click();
  await carolPage.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  await expect(carolPage.getByText('A comment is required')).toBeVisible();
  await carolPage.getByTestId('action-comment').fill('Which budget line?');
  await submitDialog(carolPage);
  await expect(carolPage.getByTestId('timeline')).toContainText('Returned to previous step');
  await expect(carolPage.getByTestId('timeline')).toContainText('Which budget line?');
  await expect(carolPage.getByTestId('diagram-node-first')).toHaveAttribute('data-state', 'active');
  await carolPage.context().close();

  // Bob has it again and returns it to the initiator.
  const bobPage = await signedIn(browser, bob);
  await bobPage.getByRole('link').filter({ hasText: flow.name }).first().click();
  await act(bobPage, 'return_initiator', 'Please name the budget line');
  await expect(bobPage.getByTestId('timeline')).toContainText('Returned to initiator');
  await bobPage.context().close();

  // Alice corrects the reason and resubmits; the request is back with bob.
  const alicePage = await signedIn(browser, alice, `/instances/${id}`);
  await expect(alicePage.getByTestId('timeline')).toContainText('Please name the budget line');
  await alicePage.getByTestId('action-resubmit').click();
  const dialog = alicePage.getByRole('dialog');
  await expect(dialog.getByLabel('Reason')).toHaveValue('printer paper');
  await dialog.getByLabel('Reason').fill('printer paper, office budget');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(alicePage.getByTestId('timeline')).toContainText('Resubmitted');
  await expect(alicePage.getByTestId('instance-form')).toContainText('office budget');
  await expect(alicePage.getByTestId('diagram-node-first')).toHaveAttribute('data-state', 'active');
  await expect(alicePage.getByTestId('action-resubmit')).toHaveCount(0);
  await alicePage.context().close();
});
