import { expect, test, type Page } from '@playwright/test';
import { apiLogin, createUser } from './api';
import { CAPTCHA_ANSWER_PORT } from './ports';

/**
 * The sign-in captcha with the default rule (LOGIN_CAPTCHA=after_failures): after three failed
 * sign-ins the page shows a captcha image; a wrong answer is refused and brings a new image;
 * the right one (read as a person reads the image, see e2e/captcha-platform.ts) signs in.
 */
async function answerOf(captchaId: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${CAPTCHA_ANSWER_PORT}/captcha/${captchaId}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Submits the sign-in form and waits for the server's refusal: 401 bad credentials, 400 captcha. */
async function refused(page: Page, status: 401 | 400) {
  const login = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/login') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect((await login).status()).toBe(status);
}

/** Submits the sign-in form, refused; answers the id of the new captcha the page then shows. */
async function refusedWithCaptcha(page: Page): Promise<string> {
  const captcha = page.waitForResponse((r) => r.url().endsWith('/api/v1/captcha'));
  await refused(page, 400);
  return ((await (await captcha).json()) as { data: { captcha_id: string } }).data.captcha_id;
}

test('after three failed sign-ins the captcha is required, refused when wrong, then accepted', async ({
  browser,
  request,
}) => {
  const { token } = await apiLogin(request, 'admin', 'admin123');
  const frank = await createUser(request, token, 'Frank');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(frank.username);
  for (let i = 0; i < 3; i++) {
    await page.getByLabel('Password').fill(`wrong-password-${i}`);
    await refused(page, 401);
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Captcha' })).toHaveCount(0);
  }

  // The fourth attempt, even with the right password, is asked for a captcha.
  await page.getByLabel('Password').fill(frank.password);
  const first = await refusedWithCaptcha(page);
  await expect(page.getByRole('img', { name: /captcha/i })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // A wrong answer is refused and replaced by a new captcha.
  const wrong = (await answerOf(first)) === 'zzzz' ? 'yyyy' : 'zzzz';
  await page.getByRole('textbox', { name: 'Captcha' }).fill(wrong);
  await page.getByLabel('Password').fill(frank.password);
  const second = await refusedWithCaptcha(page);
  expect(second).not.toBe(first);
  await expect(page).toHaveURL(/\/login/);

  // The right answer, in capitals as a person may type it, signs in.
  await page.getByRole('textbox', { name: 'Captcha' }).fill((await answerOf(second)).toUpperCase());
  await page.getByLabel('Password').fill(frank.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await context.close();
});
