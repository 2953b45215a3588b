import { z } from 'zod';
import { optionalText, url } from '../../config/env-fields.js';
import { isPlaceholderSecret } from '../../config/secrets.js';
import { defineSettings } from '../../config/slice.js';

/** Secrets shorter than this are refused in production. */
const MIN_SECRET_LENGTH = 32;

/** The system service's settings: its key for stored private keys, templates, the SMS entry. */
export const systemSettings = defineSettings({
  env: {
    SYSTEM_ENCRYPTION_KEY: optionalText,
    SYSTEM_INTERNAL_TOKEN: optionalText,
    SMS_PROVIDER_URL: url,
    SMS_PROVIDER_TOKEN: optionalText,
    TEMPLATE_LANGUAGE: z.enum(['zh-CN', 'en-US']).default('en-US'),
  },
  shape: (env) => ({
    /**
     * Encrypts stored private keys (through HKDF): its own setting, else JWT_SECRET; the two
     * never yield the same key (the HKDF info differs by purpose).
     */
    encryptionSecret: env.SYSTEM_ENCRYPTION_KEY ?? env.JWT_SECRET,
    /** The language of the notices and mails the platform sends (its templates'; default en-US). */
    templateLanguage: env.TEMPLATE_LANGUAGE,
    /** `X-Internal-Token` of `POST /internal/sms/send`; unset: the endpoint answers 503. */
    internalToken: env.SYSTEM_INTERNAL_TOKEN,
    sms: {
      /** The SMS provider's HTTP endpoint (a JSON POST); unset: sending answers 503. */
      providerUrl: env.SMS_PROVIDER_URL,
      providerToken: env.SMS_PROVIDER_TOKEN,
    },
  }),
  /** A secret that is set must be long and not a placeholder (unset is allowed: see above). */
  productionProblems: (env) =>
    (['SYSTEM_ENCRYPTION_KEY', 'SYSTEM_INTERNAL_TOKEN'] as const)
      .filter((name) => {
        const value = env[name];
        return (
          value !== undefined && (value.length < MIN_SECRET_LENGTH || isPlaceholderSecret(value))
        );
      })
      .map(
        (name) => `${name} must be at least ${MIN_SECRET_LENGTH} characters and not a placeholder`,
      ),
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    system: ReturnType<typeof systemSettings.shape>;
  }
}
