/** Which keys of a stored body hold secrets: classified by name, once per key. */

// Matched against the key lower-cased with `-` and `_` removed, so `new_password`,
// `Access-Token`, `refreshToken`, `client_secret`, `API_KEY`, `x-authorization`, `otpauth_uri`,
// `recovery_codes` and `totp_code` all match. Plain alternatives without nested quantifiers:
// linear in the key's length.
const SECRET_KEY =
  /pass(word|wd|phrase)|token|secret|authorization|captcha|apikey|credential|privatekey|cookie|otpauth|recovery|totp/;
// A key naming a code (`code`, `verification_code`, `auth_code`) holds a one-time code unless its
// value is a number: the envelope's application code, a status code.
const CODE_KEY = /code/;
// Descriptive keys that only name a kind of secret, never hold one.
const NOT_SECRET = new Set(['tokentype', 'tenantcode']);

/** How a key's values are stored: as they are, always masked, or masked unless a number. */
export type KeyKind = 'plain' | 'secret' | 'code';

// Bodies repeat the same few hundred keys: each is classified once. Bounded in entries and in
// key length, since keys are client input (random or megabyte keys must not grow it).
const KEY_CACHE_LIMIT = 4096;
const KEY_CACHE_MAX_KEY_CHARS = 128;
const keyCache = new Map<string, KeyKind>();

/** The kind of `key` (case-insensitive, `_`/`-` ignored). */
export function keyKind(key: string): KeyKind {
  let kind = keyCache.get(key);
  if (kind === undefined) {
    const normalized = key.toLowerCase().replace(/[-_]/g, '');
    kind = NOT_SECRET.has(normalized)
      ? 'plain'
      : SECRET_KEY.test(normalized)
        ? 'secret'
        : CODE_KEY.test(normalized)
          ? 'code'
          : 'plain';
    if (key.length <= KEY_CACHE_MAX_KEY_CHARS) {
      if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
      keyCache.set(key, kind);
    }
  }
  return kind;
}

/** True when the values of `key` are secrets whatever they are (case-insensitive, `_`/`-` ignored). */
export function isSecretKey(key: string): boolean {
  return keyKind(key) === 'secret';
}
