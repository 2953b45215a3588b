/**
 * The calls of the pages before sign-in: the captcha, the password sign-in, and the forgotten
 * password's two steps. The pages hold the form state; these hold the requests.
 */
import { api, data } from './client';
import type { TokenAnswer } from './account';

export interface Captcha {
  captcha_id: string;
  image: string;
}

export async function fetchCaptcha(): Promise<Captcha> {
  return (await data(api.GET('/api/v1/captcha'))) as Captcha;
}

export interface PasswordLogin {
  username: string;
  password: string;
  tenant_code?: string;
  captcha_id?: string;
  captcha?: string;
  totp_code?: string;
}

export async function passwordLogin(body: PasswordLogin): Promise<TokenAnswer> {
  return (await data(api.POST('/api/v1/login', { body }))) as TokenAnswer;
}

/** Asks for a reset link; the answer never says whether the account exists. */
export async function requestPasswordReset(body: {
  username_or_email: string;
  tenant_code?: string;
}): Promise<void> {
  await api.POST('/api/v1/password/forgot', { body });
}

export async function resetPassword(body: { token: string; new_password: string }): Promise<void> {
  await api.POST('/api/v1/password/reset', { body });
}
