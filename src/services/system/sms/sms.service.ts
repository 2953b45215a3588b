import type { Logger } from 'pino';
import { request } from 'undici';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { SendSmsInput } from './sms.schema.js';

/** How long the provider has to answer, headers and body (the brief's 5 s). */
export const SMS_PROVIDER_TIMEOUT_MS = 5_000;

export interface SmsProvider {
  /** The provider's endpoint (SMS_PROVIDER_URL); unset: sending answers 503. */
  url: string | undefined;
  /** Sent as a bearer token (SMS_PROVIDER_TOKEN). */
  token: string | undefined;
}

/** What the provider is sent: the template and its parameters, or the text. */
function messageOf(input: SendSmsInput) {
  const hasTemplate = input.template_code !== undefined;
  if (hasTemplate === (input.text !== undefined)) {
    throw AppError.validation([
      { field: 'template_code', rule: 'required', message: 'send template_code or text, not both' },
    ]);
  }
  return hasTemplate
    ? { phone: input.phone, template_code: input.template_code, params: input.params ?? {} }
    : { phone: input.phone, text: input.text };
}

/**
 * Sends one SMS through the configured HTTP provider: a JSON POST with a bearer token, 5 s to
 * answer. A provider that fails (non-2xx, refused, timed out) is 502; none configured, 503.
 * The message text and parameters never reach a log line.
 */
export class SmsService {
  constructor(private readonly o: { provider: SmsProvider; logger: Logger }) {}

  async send(input: SendSmsInput): Promise<{ provider_status: number }> {
    const message = messageOf(input);
    const { url, token } = this.o.provider;
    if (!url) throw new AppError(ERROR_CODES.UNAVAILABLE, 'no SMS provider is configured');
    let status: number;
    try {
      const response = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(message),
        headersTimeout: SMS_PROVIDER_TIMEOUT_MS,
        bodyTimeout: SMS_PROVIDER_TIMEOUT_MS,
        signal: AbortSignal.timeout(SMS_PROVIDER_TIMEOUT_MS),
      });
      await response.body.dump();
      status = response.statusCode;
    } catch (err) {
      this.o.logger.warn({ err: (err as Error).message }, 'SMS provider unreachable');
      throw new AppError(ERROR_CODES.BAD_GATEWAY, 'the SMS provider did not answer');
    }
    if (status < 200 || status >= 300) {
      this.o.logger.warn({ provider_status: status }, 'SMS provider refused the message');
      throw new AppError(ERROR_CODES.BAD_GATEWAY, `the SMS provider answered ${status}`);
    }
    return { provider_status: status };
  }
}
