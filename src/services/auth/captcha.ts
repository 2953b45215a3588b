import { randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Cache } from '../../platform/cache/cache.js';
import { AppError } from '../../platform/errors.js';
import type { RecentFailures } from './login-throttle.js';

const CAPTCHA_TTL_MS = 5 * 60_000;
const FAILURES_BEFORE_CAPTCHA = 3;

export type CaptchaMode = 'always' | 'after_failures' | 'off';

/** A new captcha: its answer is kept 5 minutes in the cache, the image goes to the client. */
export async function createCaptcha(cache: Cache) {
  const captcha = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0o1il' });
  const id = randomUUID();
  await cache.set(`auth:captcha:${id}`, captcha.text.toLowerCase(), CAPTCHA_TTL_MS);
  return {
    captcha_id: id,
    image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}`,
  };
}

/**
 * Requires a right captcha answer when the mode is `always`, or after 3 recent failures of the
 * account or the IP (`after_failures`), and in every mode while failures of the account from
 * other addresses pile up (they raise the captcha instead of locking the owner out); 40001 on the
 * `captcha` field otherwise.
 */
export async function checkCaptcha(
  cache: Cache,
  mode: CaptchaMode,
  input: { captcha_id?: string | undefined; captcha?: string | undefined },
  recentFailures: () => Promise<RecentFailures>,
): Promise<void> {
  if (mode !== 'always') {
    const failures = await recentFailures();
    const many =
      mode === 'after_failures' &&
      (failures.account >= FAILURES_BEFORE_CAPTCHA || failures.ip >= FAILURES_BEFORE_CAPTCHA);
    if (!many && !failures.spread) return;
  }
  const problem = (message: string, rule: 'required' | 'format') =>
    AppError.validation([{ field: 'captcha', rule, message }], message);
  if (!input.captcha_id || !input.captcha) throw problem('captcha required', 'required');
  // Taken, not read: an answer works once.
  const answer = await cache.take(`auth:captcha:${input.captcha_id}`);
  if (answer === null || answer !== input.captcha.trim().toLowerCase()) {
    throw problem('captcha is wrong or expired', 'format');
  }
}
