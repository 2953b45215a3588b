import type { Cache } from '../../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { CaptchaMode } from '../captcha.js';
import type { RequestContext } from '../login-events.js';
import type { SignedIn, SignInChecks } from '../sign-in-checks.js';
import type { PageCaptcha } from './interaction.pages.js';

/** What the sign-in page uses: the sign-in checks of `POST /api/v1/login`. */
export type SignInCore = Pick<
  SignInChecks,
  'authenticatePassword' | 'confirmSecondFactor' | 'admitToProvider' | 'captcha'
>;

/** A sign-in waits this long between its password step and its TOTP step. */
const SECOND_STEP_TTL_MS = 5 * 60_000;

export interface SignInForm {
  username: string;
  password: string;
  tenant_code?: string | undefined;
  captcha_id?: string | undefined;
  captcha?: string | undefined;
}

/** What the page shows next. */
export type SignInStep =
  | { kind: 'expired' }
  | { kind: 'code'; error?: string | undefined }
  | { kind: 'refused'; error: string; captcha?: PageCaptcha | undefined }
  | { kind: 'password_change' }
  | { kind: 'admitted'; login: { accountId: string; amr: string[] } };

const TOO_MANY = 'Too many failed attempts. Try again later.';

/** A validation error (40001) about `field`, as sign-in asks for a captcha or a TOTP code. */
export function asksFor(err: AppError, field: string): boolean {
  const fields = (err.details as { fields?: Array<{ field: string }> } | null)?.fields;
  return err.code === ERROR_CODES.VALIDATION && Boolean(fields?.some((f) => f.field === field));
}

/**
 * One post of the sign-in page, through the same core as `POST /api/v1/login` (captcha,
 * throttle, password, status, TOTP, login log with login type `oidc`). A user with TOTP on is
 * held under `pendingKey` (the interaction's) between the password and the code; a wrong code
 * may be retried under the throttle, as on `/login`.
 */
export async function signInStep(
  core: SignInCore,
  input: { pendingKey: string; captchaMode: CaptchaMode } & (
    { form: SignInForm } | { code: string }
  ),
  ctx: RequestContext,
  cache: Cache,
): Promise<SignInStep> {
  const codeStep = 'code' in input;
  try {
    let signedIn: SignedIn;
    if (codeStep) {
      const pending = await cache.get(input.pendingKey);
      if (!pending) return { kind: 'expired' };
      if (!input.code) return { kind: 'code', error: 'Enter the code.' };
      signedIn = await core.confirmSecondFactor(Number(pending), input.code, ctx, 'oidc');
      await cache.del(input.pendingKey);
    } else {
      const first = await core.authenticatePassword(input.form, ctx, 'oidc');
      if ('codeNeeded' in first) {
        await cache.set(input.pendingKey, String(first.userId), SECOND_STEP_TTL_MS);
        return { kind: 'code' };
      }
      signedIn = first;
    }
    return { kind: 'admitted', login: core.admitToProvider(signedIn, ctx) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === ERROR_CODES.PASSWORD_CHANGE_REQUIRED) return { kind: 'password_change' };
    if (codeStep) {
      if (err.code === ERROR_CODES.RATE_LIMITED) return { kind: 'code', error: TOO_MANY };
      if (err.code === ERROR_CODES.BAD_CREDENTIALS) {
        return { kind: 'code', error: 'The code is wrong.' };
      }
      throw err;
    }
    const captchaAsked = asksFor(err, 'captcha');
    const error =
      err.code === ERROR_CODES.RATE_LIMITED
        ? TOO_MANY
        : err.code === ERROR_CODES.BAD_CREDENTIALS
          ? 'Wrong username or password.'
          : captchaAsked
            ? 'Enter the characters in the picture.'
            : undefined;
    if (!error) throw err;
    // Once a captcha was asked for, every later try shows a new one.
    const showCaptcha =
      captchaAsked || input.form.captcha_id !== undefined || input.captchaMode === 'always';
    return { kind: 'refused', error, captcha: showCaptcha ? await core.captcha() : undefined };
  }
}
