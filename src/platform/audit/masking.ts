/** What every masked secret becomes. */
export const MASK = '***';

/** Stored request and response bodies are capped at this many characters of JSON text. */
export const MAX_STORED_BODY_CHARS = 16 * 1024;

/** Text bodies longer than this are not parsed for masking; only their size is kept. */
const MAX_PARSED_TEXT_CHARS = 1024 * 1024 + 1024;

/** Deeper structures are cut here: masking never recurses without bound (a 10^5-deep body). */
const MAX_DEPTH = 32;

// Matched against the key lower-cased with `-` and `_` removed, so `new_password`,
// `Access-Token`, `refreshToken`, `client_secret`, `API_KEY` and `x-authorization` all match.
const SECRET_KEY =
  /pass(word|wd)|token|secret|authorization|captcha|apikey|credential|privatekey|cookie/;
// Descriptive keys that only name a kind of secret, never hold one.
const NOT_SECRET = new Set(['tokentype']);

// Bodies repeat the same few hundred keys: each is classified once. Bounded, since keys are
// client input (a body of random keys must not grow it without limit).
const KEY_CACHE_LIMIT = 4096;
const keyCache = new Map<string, boolean>();

/** True when the values of `key` are secrets (case-insensitive, `_`/`-` ignored). */
export function isSecretKey(key: string): boolean {
  let secret = keyCache.get(key);
  if (secret === undefined) {
    const normalized = key.toLowerCase().replace(/[-_]/g, '');
    secret = !NOT_SECRET.has(normalized) && SECRET_KEY.test(normalized);
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    keyCache.set(key, secret);
  }
  return secret;
}

/**
 * A deep copy of `value` in which the value of every secret-looking key, at any depth and inside
 * arrays, is `"***"`. Structures deeper than 32 levels are replaced by a marker string.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, depth + 1));
  const masked: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = isSecretKey(key)
      ? MASK
      : maskSecrets((value as Record<string, unknown>)[key], depth + 1);
    // A `__proto__` key stays a plain own property, never a prototype change.
    if (key === '__proto__') {
      Object.defineProperty(masked, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else masked[key] = item;
  }
  return masked;
}

// `password=x` (form or query text) and `"password":"x"` (JSON that did not parse, e.g. cut).
const SECRET_PAIR =
  /((?:"[^"]*(?:pass(?:word|wd)|token|secret|authorization|captcha|api[-_]?key|credential|private[-_]?key|cookie)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"|(?:[\w.-]*(?:pass(?:word|wd)|token|secret|authorization|captcha|api[-_]?key|credential|private[-_]?key|cookie)[\w.-]*)=[^&\s]*)/gi;

function maskText(text: string): string {
  return text.replace(SECRET_PAIR, (pair) => {
    const colon = pair.startsWith('"') ? pair.indexOf(':', pair.indexOf('"', 1)) : -1;
    if (colon >= 0) return `${pair.slice(0, colon + 1)}"${MASK}"`;
    return `${pair.slice(0, pair.indexOf('=') + 1)}${MASK}`;
  });
}

/** Cuts `text` to the cap, saying how much was left out. */
export function capText(text: string, max = MAX_STORED_BODY_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…[truncated ${text.length - max} chars]`;
}

/**
 * A body as the operation log stores it: masked JSON text, capped at 16 KB. Parsed bodies
 * (objects, arrays) are masked by key; text is parsed as JSON when it can be, otherwise
 * `key=value` and `"key": "value"` pairs with secret-looking keys are masked in place. Binary
 * and streamed bodies are stored as a marker only. Empty bodies are null.
 */
export function maskBody(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array)
    return `[binary ${body.byteLength} bytes]`;
  if (typeof body === 'string') {
    if (body.length > MAX_PARSED_TEXT_CHARS) return `[body of ${body.length} chars not recorded]`;
    const first = body.trimStart()[0];
    if (first === '{' || first === '[') {
      try {
        return capText(JSON.stringify(maskSecrets(JSON.parse(body))));
      } catch {
        // not JSON after all: masked as text below
      }
    }
    return capText(maskText(body));
  }
  if (typeof body === 'object') {
    if (typeof (body as { pipe?: unknown }).pipe === 'function') return '[stream]';
    try {
      return capText(JSON.stringify(maskSecrets(body)));
    } catch {
      return '[unserializable body]';
    }
  }
  return capText(String(body));
}
