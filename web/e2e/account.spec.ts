import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { apiLogin, createUser, uniq } from './api';
import { signedIn } from './session';

/** The authenticator's code `periods` 30-second periods from now (one either side is accepted). */
const codeAt = (secret: string, periods = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + periods * 30 });

/** The form item (label, input and the messages under it) of a labelled field. */
const fieldOf = (page: Page, label: string) =>
  page.locator('.ant-form-item').filter({ has: page.getByLabel(label, { exact: true }) });

test('turns TOTP on in the profile with the password, ends sessions, signs in with a code, turns TOTP off', async ({
  browser,
  request,
}) => {
  const admin = await apiLogin(request, 'admin', 'admin123');
  const person = await createUser(request, admin.token, 'Totp');
  // A second session of the same user, elsewhere: turning TOTP on signs it out.
  const elsewhere = await apiLogin(request, person.username, person.password);
  const page = await signedIn(browser, person, '/profile');

  // Enrol: the password first, then QR code and secret for manual entry, then the first code.
  const totp = page.locator('.ant-card').filter({ hasText: 'Two-step sign-in' });
  await expect(totp.getByText('Off', { exact: true })).toBeVisible();
  await totp.getByLabel('Current password').fill('Not-The-Password-1');
  await totp.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(fieldOf(page, 'Current password').locator('.ant-form-item-explain')).toHaveText(
    'password is wrong',
  );
  await totp.getByLabel('Current password').fill(person.password);
  const enrolled = page.waitForResponse((r) => r.url().endsWith('/api/v1/me/totp/enroll'));
  await totp.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  const { data: pending } = (await (await enrolled).json()) as {
    data: { secret: string; otpauth_uri: string };
  };
  await expect(totp.getByLabel('QR code for the authenticator app')).toBeVisible();
  await expect(totp.getByText(pending.secret)).toBeVisible();
  await totp.getByLabel('Code from the app').fill('000000');
  await totp.getByRole('button', { name: 'Turn on' }).click();
  await expect(fieldOf(page, 'Code from the app').locator('.ant-form-item-explain')).toHaveText(
    'the code is wrong',
  );
  await totp.getByLabel('Code from the app').fill(await codeAt(pending.secret));
  await totp.getByRole('button', { name: 'Turn on' }).click();

  // The ten recovery codes, shown once.
  const codes = totp.getByTestId('recovery-code');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  for (const c of recovery) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await totp.getByRole('button', { name: 'I have saved them' }).click();
  await expect(totp.getByText('On', { exact: true })).toBeVisible();
  await expect(totp.getByTestId('recovery-code')).toHaveCount(0);
  // The session elsewhere is signed out; this browser's stays.
  const me = await request.get('/api/v1/me', {
    headers: { authorization: `Bearer ${elsewhere.token}` },
  });
  expect(me.status()).toBe(401);
  // Another one, signed in with a recovery code: the one ended from the list.
  const again = await request.post('/api/v1/login', {
    data: { username: person.username, password: person.password, totp_code: recovery[1] },
  });
  expect(again.ok()).toBe(true);
  await page.reload();

  // My sessions: this browser tagged, the API's session ended after a confirmation.
  const sessions = page.locator('.ant-card').filter({ hasText: 'My sessions' });
  const rows = sessions.locator('tbody tr.ant-table-row');
  const current = rows.filter({ hasText: 'This browser' });
  await expect(current).toHaveCount(1);
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(2);
  const other = rows.filter({ hasNotText: 'This browser' }).first();
  await other.getByRole('button', { name: /^Sign out session/ }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByText('The session is signed out')).toBeVisible();
  await expect(rows).toHaveCount(count - 1);

  // Ending the current session signs the console out.
  await current.getByRole('button', { name: /^Sign out session/ }).click();
  await expect(page.getByText('This is the session you are using')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  // Sign in again: the password alone is not enough, the page asks for the code.
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Two-step sign-in is on for this account')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // A code works once: the one that turned TOTP on was this period's, so the next period's.
  await page.getByLabel('Verification code').fill(await codeAt(pending.secret, 1));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();

  // Turn it off with a recovery code.
  await page.goto('/profile');
  await expect(totp.getByText('On', { exact: true })).toBeVisible();
  await totp.getByLabel('Current password').fill(person.password);
  await totp.getByLabel('Current code or a recovery code').fill(recovery[0]!);
  await totp.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Two-step sign-in is off')).toBeVisible();
  await expect(totp.getByText('Off', { exact: true })).toBeVisible();
  // And the password alone signs in again.
  await apiLogin(request, person.username, person.password);
});

test('the forgot page answers the same for an unknown account', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Username or e-mail').fill(`${uniq('nobody')}@nowhere.example`);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByText('Check your mail')).toBeVisible();
  await expect(page.getByText(/If an account with an e-mail address matches/)).toBeVisible();
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the reset page shows the server’s refusal of a bad token on the reset code field', async ({
  page,
}) => {
  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByLabel('Reset code')).toHaveValue('not-a-real-token');
  await page.getByLabel('New password', { exact: true }).fill('Harbor-Quiet-Lamp-93');
  await page.getByLabel('Repeat the new password').fill('Harbor-Quiet-Lamp-93');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(fieldOf(page, 'Reset code').locator('.ant-form-item-explain')).toContainText(
    'the reset link is invalid, used or expired',
  );
  await expect(page).toHaveURL(/\/reset-password/);
});
