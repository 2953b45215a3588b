import { createHash } from 'node:crypto';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';

// The pure parts of Idempotency-Key handling: reading the header and fingerprinting a request.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The `Idempotency-Key` header: undefined when absent, the key when it is 1–128 characters of
 * `[A-Za-z0-9._:-]`, otherwise a 400 (40000). A header sent twice arrives joined with ", " and
 * is refused by the same rule.
 */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && KEY_PATTERN.test(value)) return value;
  throw new AppError(ERROR_CODES.BAD_REQUEST, 'invalid Idempotency-Key header', {
    fields: [
      {
        field: 'Idempotency-Key',
        rule: 'format',
        message: 'must be 1 to 128 characters of A-Z a-z 0-9 . _ : -',
      },
    ],
  });
}

/**
 * JSON with object keys sorted at every depth, so two bodies that differ only in key order
 * hash alike. Follows JSON.stringify otherwise: undefined members are dropped, undefined array
 * items and non-finite numbers become null, and a top-level undefined (no body) is `null`.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  }
  if (typeof value === 'object') {
    const withToJson = value as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === 'function') return canonicalJson(withToJson.toJSON());
    const members = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${members.join(',')}}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  // bigint, functions, symbols never come out of a parsed JSON body.
  throw new TypeError(`cannot hash a ${typeof value}`);
}

/** SHA-256 (hex) of method, path and canonical body: what "the same request" means for a key. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path}\n${canonicalJson(body)}`)
    .digest('hex');
}
