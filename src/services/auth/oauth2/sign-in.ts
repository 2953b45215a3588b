import type { PasswordHasher } from '../../../platform/auth/passwords.js';
import { AppError, ERROR_CODES } from '../../../platform/http/errors.js';
import { accountKey, type LoginThrottle } from '../login-throttle.js';

/** What the sign-in page needs from the user directory (the identity port of auth.app.ts). */
export interface SignInDirectory {
  findTenant(code: string): Promise<{ id: number; status: 'active' | 'disabled' } | undefined>;
  findCredentials(
    tenantId: number,
    username: string,
  ): Promise<{ id: number; password_hash: string; status: 'active' | 'disabled' } | undefined>;
}

export type SignInResult =
  { ok: true; userId: number } | { ok: false; reason: 'invalid' | 'locked' };

/**
 * The sign-in page's password check, on the platform's own users and the platform's password
 * verification (argon2id, with the same equal-time answer for an unknown user), under the same
 * throttle as `POST /api/v1/login`: the attempt counts before the password is checked, per
 * account and IP, and a throttled account is refused without a check.
 */
export async function checkSignIn(
  deps: { directory: SignInDirectory; passwords: PasswordHasher; throttle: LoginThrottle },
  input: { username: string; password: string; tenantCode: string },
  ip: string,
): Promise<SignInResult> {
  const tenant = await deps.directory.findTenant(input.tenantCode);
  const account = accountKey(tenant ?? input.tenantCode, input.username);
  try {
    await deps.throttle.begin(account, ip);
  } catch (err) {
    if (err instanceof AppError && err.code === ERROR_CODES.RATE_LIMITED) {
      return { ok: false, reason: 'locked' };
    }
    throw err;
  }
  const credentials = tenant && (await deps.directory.findCredentials(tenant.id, input.username));
  if (!tenant || !credentials) {
    await deps.passwords.burn(input.password);
    return { ok: false, reason: 'invalid' };
  }
  const valid = await deps.passwords.verify(credentials.password_hash, input.password);
  if (!valid || tenant.status !== 'active' || credentials.status !== 'active') {
    return { ok: false, reason: 'invalid' };
  }
  await deps.throttle.succeeded(account, ip);
  return { ok: true, userId: credentials.id };
}
