import { keyKind, isSecretKey } from './secret-keys.js';

/** What every masked secret becomes. */
export const MASK = '***';

/** Stored request and response bodies are capped at this many characters of JSON text. */
export const MAX_STORED_BODY_CHARS = 16 * 1024;

/**
 * Text bodies up to this size are parsed as JSON to be masked by key; longer ones are cut to the
 * stored size first and masked as text, so the work per body is bounded whatever its size.
 */
export const MAX_PARSED_TEXT_CHARS = 64 * 1024;

/** Deeper structures are cut here: masking never recurses without bound (a 10^5-deep body). */
const MAX_DEPTH = 32;

/** Values a structured body may visit before it is cut: the work never follows its size. */
const MAX_VISITED_VALUES = 20_000;

const TRUNCATED = '…[truncated]';

/** How one body is masked beyond secrets and codes. */
export interface MaskOptions {
  /**
   * An allow-list: when set, only members whose key it accepts keep their value (objects and
   * arrays under them are filtered the same way); every other member's value is `"***"`, and a
   * body that is not parsed as JSON is not stored (`[omitted]`). Default: every key is kept
   * unless it names a secret or a code.
   */
  keeps?: ((key: string) => boolean) | undefined;
}

/** What a body that is deliberately not stored becomes. */
export const OMITTED = '[omitted]';

/** True when the member `key` → `value` of a stored body is shown as `"***"`. */
function hides(key: string, value: unknown, options: MaskOptions): boolean {
  const kind = keyKind(key);
  if (kind === 'secret' || (kind === 'code' && typeof value !== 'number')) return true;
  return options.keeps !== undefined && !options.keeps(key);
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

/** Cuts `text` to the cap, saying how much was left out. */
export function capText(text: string, max = MAX_STORED_BODY_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…[truncated ${text.length - max} chars]`;
}

/** Thrown inside the writer once the output is full; never leaves this module. */
class Full extends Error {}

/**
 * Writes `value` as JSON text with hidden keys masked, and stops as soon as the text reaches
 * `max` characters or `MAX_VISITED_VALUES` values were visited: a megabyte body costs what its
 * first 16 KB cost. Same output as `JSON.stringify(maskSecrets(value))` for bodies that fit.
 */
function boundedMaskedJson(value: unknown, options: MaskOptions, max: number): string {
  const parts: string[] = [];
  let size = 0;
  let visited = 0;
  const put = (text: string) => {
    if (size + text.length > max) {
      parts.push(text.slice(0, max - size));
      throw new Full();
    }
    parts.push(text);
    size += text.length;
  };
  const write = (item: unknown, depth: number, inArray: boolean): void => {
    if (++visited > MAX_VISITED_VALUES) throw new Full();
    if (item !== null && typeof item === 'object') {
      const toJSON = (item as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') item = (toJSON as () => unknown).call(item);
    }
    switch (typeof item) {
      case 'string':
        // Only what can still be stored is escaped: a megabyte string costs its first 16 KB.
        put(JSON.stringify(item.length > max - size ? item.slice(0, max - size + 1) : item));
        return;
      case 'number':
        put(Number.isFinite(item) ? String(item) : 'null');
        return;
      case 'boolean':
        put(String(item));
        return;
      case 'bigint':
        put(String(item));
        return;
      case 'object':
        break;
      default:
        // undefined, functions and symbols: left out of objects, null in arrays (JSON's rule).
        if (inArray) put('null');
        return;
    }
    if (item === null) return put('null');
    if (depth >= MAX_DEPTH) return put('"[too deep]"');
    if (Array.isArray(item)) {
      put('[');
      for (let k = 0; k < item.length; k++) {
        if (k > 0) put(',');
        write(item[k], depth + 1, true);
      }
      return put(']');
    }
    put('{');
    let first = true;
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue;
      const member = (item as Record<string, unknown>)[key];
      const kind = typeof member;
      if (kind === 'undefined' || kind === 'function' || kind === 'symbol') continue;
      put(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      if (hides(key, member, options)) put(`"${MASK}"`);
      else write(member, depth + 1, false);
    }
    put('}');
  };
  try {
    write(value, 0, false);
    return parts.join('');
  } catch (err) {
    if (err instanceof Full) return `${parts.join('')}${TRUNCATED}`;
    throw err;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const EQUALS = 0x3d;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Characters of a `key=value` key: letters, digits, `_ . - [ ] %`. */
function isKeyChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x25
  );
}

/** Where the value of a `key=value` pair ends: `&`, `;` or whitespace (a quote may be escaped). */
const endsPairValue = (c: number) => c === 0x26 || c === 0x3b || isSpace(c);

/** The index of the quote closing the JSON string opened at `start`, or -1 if unterminated. */
function closingQuote(text: string, start: number, end: number): number {
  let j = start + 1;
  while (j < end) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j += 2;
    else if (c === QUOTE) return j;
    else j++;
  }
  return -1;
}

/** True when a JSON number starts at `at` (a code key's number value is not a one-time code). */
function startsNumber(text: string, at: number, end: number): boolean {
  if (at >= end) return false;
  const c = text.charCodeAt(at);
  return c === 0x2d || (c >= 0x30 && c <= 0x39);
}

/** The index after the JSON string opened at `start`, or `end` if unterminated. */
function stringEnd(text: string, start: number, end: number): number {
  const close = closingQuote(text, start, end);
  return close < 0 ? end : close + 1;
}

function skipSpace(text: string, from: number, end: number): number {
  while (from < end && isSpace(text.charCodeAt(from))) from++;
  return from;
}

/** The index after the JSON value at `start` (nested values by bracket count), or `end`. */
function valueEnd(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start, end);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    let j = start;
    while (j < end) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        j = stringEnd(text, j, end);
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return j + 1;
      j++;
    }
    return end;
  }
  let j = start;
  while (j < end) {
    const c = text.charCodeAt(j);
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
    j++;
  }
  return j;
}

/** A JSON key token's text (escapes resolved when it is complete), for classification. */
function keyText(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1).replace(/"$/, '');
  }
}

/** A form key (percent-decoded when it decodes), for classification. */
function formKeyText(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Masks `text[from, end)` in one forward pass (every character is looked at a bounded number of
 * times, so the work is linear in its length; no backtracking regex): the value of every JSON
 * member whose key names a secret (`"password": "x"`, `"token": {…}`, unterminated at a cut
 * included), or a code and is not a number, becomes `"***"`, and so does the value of every
 * `key=value` pair with a secret or code key, outside strings and inside them (a query string in
 * a JSON value).
 */
function maskTextRange(text: string, from: number, end: number, inString: boolean): string {
  let out = '';
  let i = from;
  let copied = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === QUOTE && !inString) {
      const quote = closingQuote(text, i, end);
      const close = quote < 0 ? end : quote + 1;
      const colon = skipSpace(text, close, end);
      if (colon < end && text.charCodeAt(colon) === COLON) {
        const kind = keyKind(keyText(text.slice(i, close)));
        const value = skipSpace(text, colon + 1, end);
        if (kind === 'secret' || (kind === 'code' && !startsNumber(text, value, end))) {
          out += `${text.slice(copied, colon + 1)}"${MASK}"`;
          i = copied = value < end ? valueEnd(text, value, end) : end;
          continue;
        }
        i = close;
        continue;
      }
      // A string value: pairs inside it (`"https://x/?token=abc"`) are masked too.
      const contentEnd = quote < 0 ? end : quote;
      out += text.slice(copied, i + 1) + maskTextRange(text, i + 1, contentEnd, true);
      copied = contentEnd;
      i = close;
      continue;
    }
    if (isKeyChar(c)) {
      let j = i + 1;
      while (j < end && isKeyChar(text.charCodeAt(j))) j++;
      if (
        j < end &&
        text.charCodeAt(j) === EQUALS &&
        keyKind(formKeyText(text.slice(i, j))) !== 'plain'
      ) {
        let k = j + 1;
        while (k < end && !endsPairValue(text.charCodeAt(k))) k++;
        out += `${text.slice(copied, j + 1)}${MASK}`;
        i = copied = k;
        continue;
      }
      i = j;
      continue;
    }
    i++;
  }
  return out + text.slice(copied, end);
}

/** `text` with secrets masked as text (see `maskTextRange`); linear in its length. */
export function maskText(text: string): string {
  return maskTextRange(text, 0, text.length, false);
}

/** `text` parsed as JSON when it looks like JSON and is small enough to parse; else undefined. */
export function parseSmallJson(text: string): unknown {
  if (text.length > MAX_PARSED_TEXT_CHARS) return undefined;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A body as the operation log stores it: masked JSON text, capped at 16 KB, the work bounded by
 * the cap rather than the body's size. Parsed bodies (objects, arrays) are masked by key while
 * written, stopping at the cap. Text up to 64 KB that parses as JSON is masked the same way;
 * other text is cut to the cap first and then masked as text in one linear pass (`key=value`
 * and `"key": value` pairs), unless an allow-list is given (then it is `[omitted]`). Binary and
 * streamed bodies are stored as a marker only. Empty bodies are null.
 */
export function maskBody(body: unknown, options: MaskOptions = {}): string | null {
  if (body === undefined || body === null || body === '') return null;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array)
    return `[binary ${body.byteLength} bytes]`;
  if (typeof body === 'string') {
    const parsed = parseSmallJson(body);
    if (parsed !== undefined) return boundedMaskedJson(parsed, options, MAX_STORED_BODY_CHARS);
    // An allow-list cannot be applied to text it does not parse: nothing of it is stored.
    if (options.keeps) return OMITTED;
    // Cut first, then mask what is kept; masking may lengthen it (`***` for a short value), so
    // the result is cut again: removing characters never reveals a masked value.
    const masked = maskText(body.slice(0, MAX_STORED_BODY_CHARS));
    const left = body.length - Math.min(body.length, MAX_STORED_BODY_CHARS);
    if (left === 0 && masked.length <= MAX_STORED_BODY_CHARS) return masked;
    const cut = masked.slice(0, MAX_STORED_BODY_CHARS);
    return left > 0 ? `${cut}…[truncated ${left} chars]` : `${cut}${TRUNCATED}`;
  }
  if (typeof body === 'object') {
    if (typeof (body as { pipe?: unknown }).pipe === 'function') return '[stream]';
    try {
      return boundedMaskedJson(body, options, MAX_STORED_BODY_CHARS);
    } catch {
      return '[unserializable body]';
    }
  }
  return boundedMaskedJson(body, options, MAX_STORED_BODY_CHARS);
}
