import { expect, test } from '@playwright/test';
import { apiLogin, call, chain, createUser, publishFlow, uniq } from './api';
import { audit } from './axe';
import { signedIn } from './session';

/**
 * Batch approve in the todo list: an approver picks three requests, one of which its initiator
 * withdraws meanwhile; the dialog names the three, the answer says two were approved and names
 * the refused one with the reason in words, and the two requests are approved on the server.
 */
test('an approver approves several picked requests at once; a refused one is named', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, 'admin', 'admin123');
  const approver = await createUser(request, token, 'Batch Approver');
  const initiator = await createUser(request, token, 'Batch Initiator');
  const flow = await publishFlow(
    request,
    token,
    chain([{ id: 'lead', name: 'Lead', users: [approver.id] }]),
  );
  const { token: initiatorToken } = await apiLogin(request, initiator.username, initiator.password);
  const tag = uniq('batch');
  const titles = [`${tag} trip 1`, `${tag} trip 2`, `${tag} trip 3`] as const;
  const ids: number[] = [];
  for (const title of titles) {
    const started = await call<{ id: number }>(
      request,
      initiatorToken,
      'POST',
      '/api/v1/bpm/instances',
      {
        definition_key: flow.key,
        title,
        form: { reason: title },
      },
    );
    ids.push(started.id);
  }

  const page = await signedIn(browser, approver, '/todo');
  for (const title of titles) {
    await page.getByRole('checkbox', { name: `Pick “${title}”` }).check();
  }
  const bar = page.getByRole('toolbar', { name: 'Act on the picked tasks' });
  await expect(bar).toContainText('3 picked');

  // The initiator takes the third request back before the approver acts.
  await call(request, initiatorToken, 'POST', `/api/v1/bpm/instances/${ids[2]}/cancel`, {});

  await bar.getByRole('button', { name: 'Approve picked' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve 3 requests' });
  for (const title of titles) await expect(dialog).toContainText(title);
  expect(await audit(page, '.ant-modal')).toEqual([]);
  await dialog.getByLabel('Comment (optional)').fill('Fine by me');
  await dialog.getByRole('button', { name: 'Approve picked' }).click();

  await expect(dialog.getByRole('status')).toContainText('2 approved');
  const refused = dialog.getByRole('group', { name: 'Tasks not done' });
  await expect(refused).toContainText(titles[2]);
  await expect(refused.getByRole('link', { name: titles[2] })).toBeVisible();
  expect(await audit(page, '.ant-modal')).toEqual([]);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(bar).toHaveCount(0);

  for (const id of ids.slice(0, 2)) {
    const instance = await call<{ status: string }>(
      request,
      token,
      'GET',
      `/api/v1/bpm/instances/${id}`,
    );
    expect(instance.status).toBe('approved');
  }
  // The list no longer offers the approved requests.
  await expect(page.locator('.ant-table-row').filter({ hasText: tag })).toHaveCount(0);
});
