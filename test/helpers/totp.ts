import { generate } from 'otplib';
import type { TestPlatform } from './platform.js';

/** The TOTP code of the period `offset` periods from now (one period of drift is accepted). */
export const totpCodeAt = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/**
 * Turns TOTP on for the signed-in user of `token` whose password is `password` (enrol, then
 * confirm with the previous period's code, so the current one is still free for a sign-in);
 * answers the secret.
 */
export async function enableTotp(
  platform: TestPlatform,
  token: string,
  password: string,
): Promise<string> {
  const enrol = await platform.call('POST', '/api/v1/me/totp/enroll', {
    token,
    body: { password },
  });
  if (enrol.status !== 200) throw new Error(`TOTP enrolment failed: ${enrol.text}`);
  const secret = enrol.body.data.secret as string;
  const confirm = await platform.call('POST', '/api/v1/me/totp/confirm', {
    token,
    body: { code: await totpCodeAt(secret, -1), password },
  });
  if (confirm.status !== 200) throw new Error(`TOTP confirmation failed: ${confirm.text}`);
  return secret;
}
