import { isPlaceholderSecret } from './secrets.js';
import type { Env } from './settings.js';

/** Secrets shorter than this are refused in production. */
const MIN_SECRET_LENGTH = 32;

/**
 * The system service's production checks: a secret that is set must be long and not a
 * placeholder (unset is allowed: the key falls back to JWT_SECRET, the SMS entry answers 503).
 */
export function systemProductionProblems(env: Env): string[] {
  const problems: string[] = [];
  for (const name of ['SYSTEM_ENCRYPTION_KEY', 'SYSTEM_INTERNAL_TOKEN'] as const) {
    const value = env[name];
    if (value !== undefined && (value.length < MIN_SECRET_LENGTH || isPlaceholderSecret(value))) {
      problems.push(
        `${name} must be at least ${MIN_SECRET_LENGTH} characters and not a placeholder`,
      );
    }
  }
  return problems;
}

/** The system service's settings (and the error-text refresh every process runs). */
export function systemSettings(env: Env) {
  return {
    /** How old a process's copy of the editable error texts may get (default 30 s). */
    errorTextRefreshMs: env.ERROR_TEXT_REFRESH_INTERVAL,
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
  };
}
