import { expect, test } from '@playwright/test';
import { apiLogin, call, chain, createUser, publishFlow, startInstance, todoTaskOf } from './api';
import { type Person, signedIn, submitDialog } from './session';

/** Cancel: the initiator withdraws a request nobody decided yet; after a decision they cannot. */
const admin: Person = { username: 'admin', password: 'admin123' };

test('the initiator cancels an undecided request, and cannot once an approver acted', async ({
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
      { id: 'lead', name: 'Team lead', users: [bob.id] },
      { id: 'finance', name: 'Finance', users: [carol.id] },
    ]),
  );
  const aliceApi = await apiLogin(request, alice.username, alice.password);
  const undecided = await startInstance(request, aliceApi.token, flow.key, 'wrong dates');
  const decided = await startInstance(request, aliceApi.token, flow.key, 'right dates');
  const bobApi = await apiLogin(request, bob.username, bob.password);
  const task = await todoTaskOf(request, bobApi.token, decided);
  await call(request, bobApi.token, 'POST', `/api/v1/bpm/tasks/${task}/approve`, {});

  const page = await signedIn(browser, alice, `/instances/${undecided}`);
  await expect(page.getByTestId('instance-initiator')).toHaveText(alice.username);
  await page.getByTestId('action-cancel').click();
  await page.getByTestId('action-comment').fill('Wrong dates, starting again');
  await submitDialog(page);
  await expect(page.getByText('Canceled').first()).toBeVisible();
  await expect(page.getByTestId('timeline')).toContainText('Wrong dates, starting again');
  await expect(page.getByTestId('action-cancel')).toHaveCount(0);

  await page.goto(`/instances/${decided}`);
  await expect(page.getByTestId('timeline')).toContainText('Approved');
  await expect(page.getByTestId('action-cancel')).toHaveCount(0);
  await page.context().close();

  // The canceled request left the approver's todo list.
  const todo = await call<{ list: { instance_id: number }[] }>(
    request,
    bobApi.token,
    'GET',
    '/api/v1/bpm/tasks/todo?page_size=100',
  );
  expect(todo.list.map((t) => t.instance_id)).not.toContain(undecided);
});
