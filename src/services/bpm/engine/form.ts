/**
 * Form snapshots against a definition's form schema (BPM.md "The form schema"), and the schema
 * itself at definition create/update/publish. Pure: plain data in, problems out.
 *
 * Decisions where BPM.md is silent:
 * - `undefined`, `null` and `''` all mean "no value", for every field type. A required field
 *   without a value is a `required` problem; an optional one is omitted from the result (never
 *   stored as null), so "absent" has one spelling in a stored snapshot.
 * - Text length counts Unicode code points (an emoji is one character), never UTF-16 units.
 *   Text is kept as sent: no trimming, so `'  '` is a value.
 * - `amount` accepts a number or a string matching `-?digits(.d|.dd)?` (no spaces, no exponent,
 *   no `+`); the digits are converted to cents as integers, never by multiplying a float.
 *   Without a `min` an amount may not be negative.
 * - A non-string `date` is a `type` problem; a string that is not a real date is `format`. A
 *   non-string `select`/`radio` value is an `option` problem like any value outside `options`.
 * - A `file` value is an array of distinct file ids, at most `maxCount` (default 1); an empty
 *   array is "no value". Whether the files exist, whose they are and their types are the files
 *   service's to say (file-fields.ts).
 */
import type { FieldProblem } from '../../../platform/errors.js';
import type { FieldType, FormData, FormField, FormSchema, FormValue } from './types.js';

export const FIELD_TYPES: readonly FieldType[] = [
  'input',
  'textarea',
  'number',
  'amount',
  'select',
  'radio',
  'date',
  'switch',
  'user',
  'dept',
  'file',
];

/** file: the most files one field may hold, and the default. */
export const MAX_FILE_COUNT = 20;
/** file: an accepted type, `type/subtype` or `type/*`, lower case. */
const ACCEPT_PATTERN = /^[a-z0-9][a-z0-9.+-]{0,62}\/(?:[a-z0-9][a-z0-9.+-]{0,62}|\*)$/;

/** input / textarea: at most this many code points. */
export const MAX_TEXT_LENGTH = 2000;
/** Form field keys: an identifier of at most 64 characters. */
export const FIELD_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Keys that would reach an object's prototype when a snapshot is handled carelessly. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const AMOUNT_PATTERN = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export type FormValidation = { ok: true; form: FormData } | { ok: false; problems: FieldProblem[] };

/** A JSON-style object: not null, not an array, not a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `YYYY-MM-DD` naming a real day of the proleptic Gregorian calendar, years 0001–9999. */
export function isCalendarDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Code points, so a character outside the BMP counts once. */
export function textLength(value: string): number {
  // A string never has more code points than UTF-16 units: skip the count when it cannot matter.
  if (value.length <= MAX_TEXT_LENGTH) return value.length;
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/**
 * Yuan (number or decimal string, at most two decimals) to integer cents. `format` when the
 * text is not such a decimal, `range` when the cents are not a safe integer.
 */
export function yuanToCents(
  value: number | string,
): { ok: true; cents: number } | { ok: false; rule: 'format' | 'range' } {
  if (typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER / 100) {
    return { ok: false, rule: 'range' };
  }
  // A number's shortest round-trip text is its decimal as typed: 19.99 → "19.99", while
  // 0.1 + 0.2 → "0.30000000000000004" (refused: more than two decimals).
  const m = AMOUNT_PATTERN.exec(typeof value === 'number' ? String(value) : value);
  if (!m) return { ok: false, rule: 'format' };
  const whole = m[2] ?? '0';
  const frac = (m[3] ?? '').padEnd(2, '0');
  if (whole.length > 16) return { ok: false, rule: 'range' };
  const cents = Number(whole) * 100 + Number(frac);
  if (!Number.isSafeInteger(cents)) return { ok: false, rule: 'range' };
  return { ok: true, cents: m[1] && cents !== 0 ? -cents : cents };
}

/** Integer cents as a yuan text for messages: 1999 → "19.99". */
function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

type Checked = { value: Exclude<FormValue, null> } | { problem: FieldProblem };

function problem(field: FormField, rule: FieldProblem['rule'], message: string): Checked {
  return { problem: { field: field.key, rule, message: `${field.label} ${message}` } };
}

function checkValue(field: FormField, value: unknown): Checked {
  switch (field.type) {
    case 'input':
    case 'textarea':
      if (typeof value !== 'string') return problem(field, 'type', 'must be text');
      if (textLength(value) > MAX_TEXT_LENGTH) {
        return problem(field, 'max_length', `must be at most ${MAX_TEXT_LENGTH} characters`);
      }
      return { value };
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return problem(field, 'type', 'must be a finite number');
      }
      if (field.min !== undefined && value < field.min) {
        return problem(field, 'range', `must be at least ${field.min}`);
      }
      if (field.max !== undefined && value > field.max) {
        return problem(field, 'range', `must be at most ${field.max}`);
      }
      return { value };
    }
    case 'amount': {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        return problem(field, 'type', 'must be a finite amount in yuan');
      }
      if (typeof value !== 'number' && typeof value !== 'string') {
        return problem(field, 'type', 'must be an amount in yuan (a number or a numeric string)');
      }
      const parsed = yuanToCents(value);
      if (!parsed.ok) {
        return parsed.rule === 'format'
          ? problem(field, 'format', 'must be an amount in yuan with at most two decimals')
          : problem(field, 'range', 'is too large');
      }
      // Schema bounds have at most two decimals (validateFormSchema), so rounding is exact.
      const min = field.min === undefined ? 0 : Math.round(field.min * 100);
      if (parsed.cents < min) {
        return problem(
          field,
          'range',
          min === 0 ? 'must not be negative' : `must be at least ${centsText(min)} yuan`,
        );
      }
      if (field.max !== undefined && parsed.cents > Math.round(field.max * 100)) {
        return problem(
          field,
          'range',
          `must be at most ${centsText(Math.round(field.max * 100))} yuan`,
        );
      }
      return { value: parsed.cents };
    }
    case 'select':
    case 'radio':
      if (typeof value !== 'string' || !(field.options ?? []).includes(value)) {
        return problem(field, 'option', 'must be one of the listed options');
      }
      return { value };
    case 'date':
      if (typeof value !== 'string') return problem(field, 'type', 'must be a date (YYYY-MM-DD)');
      if (!isCalendarDate(value)) {
        return problem(field, 'format', 'must be a real calendar date as YYYY-MM-DD');
      }
      return { value };
    case 'switch':
      if (typeof value !== 'boolean') return problem(field, 'type', 'must be true or false');
      return { value };
    case 'user':
    case 'dept':
      // Whether the id exists in the tenant is the directory's to say (directory-fields.ts).
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
        const what = field.type === 'user' ? 'a person' : 'a department';
        return problem(field, 'type', `must be ${what} (a positive integer id)`);
      }
      return { value };
    case 'file': {
      const max = field.maxCount ?? 1;
      if (!Array.isArray(value) || !value.every((id) => Number.isSafeInteger(id) && id > 0)) {
        return problem(field, 'type', 'must be a list of file ids (positive integers)');
      }
      if (value.length > max) {
        return problem(field, 'range', `holds at most ${max} file${max === 1 ? '' : 's'}`);
      }
      if (new Set(value).size !== value.length) {
        return problem(field, 'format', 'names a file twice');
      }
      return { value: [...(value as number[])] };
    }
    default:
      // Only reachable with a schema that skipped validateFormSchema.
      return problem(field, 'type', 'has an unknown field type');
  }
}

/**
 * Checks a submitted form against the schema. Every problem is reported at once, at most one
 * per field, `field` being the form field's key. On success the form holds declared keys only,
 * `amount` values in integer cents, and no entry for an optional field left empty.
 */
export function validateForm(schema: FormSchema, input: unknown): FormValidation {
  if (!isPlainObject(input)) {
    return {
      ok: false,
      problems: [{ field: '', rule: 'type', message: 'form must be an object' }],
    };
  }
  const problems: FieldProblem[] = [];
  const entries: [string, Exclude<FormValue, null>][] = [];
  for (const field of schema.fields) {
    const value = Object.hasOwn(input, field.key) ? input[field.key] : undefined;
    const none = Array.isArray(value) && value.length === 0;
    if (value === undefined || value === null || value === '' || none) {
      if (field.required === true) {
        problems.push({
          field: field.key,
          rule: 'required',
          message: `${field.label} is required`,
        });
      }
      continue;
    }
    const checked = checkValue(field, value);
    if ('problem' in checked) problems.push(checked.problem);
    else entries.push([field.key, checked.value]);
  }
  if (problems.length > 0) return { ok: false, problems };
  // fromEntries defines own properties, so no key can reach the prototype.
  return { ok: true, form: Object.fromEntries(entries) };
}

function hasAtMostTwoDecimals(n: number): boolean {
  return yuanToCents(n).ok;
}

/**
 * Checks a definition's `form_schema` as sent by a designer; `[]` when it is sound. `field`
 * names the attribute at fault, such as `form_schema.fields[2].options`.
 */
export function validateFormSchema(schema: unknown): FieldProblem[] {
  if (!isPlainObject(schema)) {
    return [{ field: 'form_schema', rule: 'type', message: 'form_schema must be an object' }];
  }
  if (!Array.isArray(schema.fields)) {
    const rule = schema.fields === undefined ? 'required' : 'type';
    return [{ field: 'form_schema.fields', rule, message: 'form_schema.fields must be an array' }];
  }
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  schema.fields.forEach((raw: unknown, i) => {
    const at = `form_schema.fields[${i}]`;
    const add = (attr: string, rule: FieldProblem['rule'], message: string): void => {
      problems.push({ field: attr ? `${at}.${attr}` : at, rule, message: `${at}: ${message}` });
    };
    if (!isPlainObject(raw)) {
      add('', 'type', 'each field must be an object');
      return;
    }
    const { key, label, type, required, options, min, max, maxCount, accept } = raw;

    if (key === undefined || key === '') add('key', 'required', 'key is required');
    else if (typeof key !== 'string') add('key', 'type', 'key must be a string');
    else if (!FIELD_KEY_PATTERN.test(key)) {
      add(
        'key',
        'format',
        `key "${key}" must be letters, digits and _ (at most 64), not starting with a digit`,
      );
    } else if (RESERVED_KEYS.has(key)) add('key', 'format', `key "${key}" is reserved`);
    else if (seen.has(key)) add('key', 'format', `key "${key}" is declared twice`);
    else seen.add(key);

    if (label === undefined || label === '') add('label', 'required', 'label is required');
    else if (typeof label !== 'string') add('label', 'type', 'label must be a string');

    const known = typeof type === 'string' && (FIELD_TYPES as readonly string[]).includes(type);
    if (type === undefined) add('type', 'required', 'type is required');
    else if (!known) add('type', 'option', `type must be one of ${FIELD_TYPES.join(', ')}`);

    if (required !== undefined && typeof required !== 'boolean') {
      add('required', 'type', 'required must be true or false');
    }

    const choice = type === 'select' || type === 'radio';
    if (choice) {
      if (options === undefined) add('options', 'required', `a ${type} field needs options`);
      else if (!Array.isArray(options))
        add('options', 'type', 'options must be an array of strings');
      else if (options.length === 0) add('options', 'required', 'options must not be empty');
      else if (!options.every((o) => typeof o === 'string')) {
        add('options', 'type', 'every option must be a string');
      } else if (options.includes('')) {
        add('options', 'format', 'an option must not be empty (empty means "no value")');
      } else if (new Set(options).size !== options.length) {
        add('options', 'format', 'options must be unique');
      }
    } else if (known && options !== undefined) {
      add('options', 'format', 'options are only allowed on select and radio fields');
    }

    if (maxCount !== undefined) {
      if (known && type !== 'file') add('maxCount', 'format', 'maxCount is only for file fields');
      else if (!Number.isSafeInteger(maxCount) || (maxCount as number) < 1) {
        add('maxCount', 'type', 'maxCount must be a positive integer');
      } else if ((maxCount as number) > MAX_FILE_COUNT) {
        add('maxCount', 'range', `maxCount must be at most ${MAX_FILE_COUNT}`);
      }
    }
    if (accept !== undefined) {
      if (known && type !== 'file') add('accept', 'format', 'accept is only for file fields');
      else if (!Array.isArray(accept) || accept.length === 0 || accept.length > 20) {
        add('accept', 'type', 'accept must be a list of 1 to 20 content types');
      } else if (!accept.every((a) => typeof a === 'string' && ACCEPT_PATTERN.test(a))) {
        add('accept', 'format', 'each accepted type is `type/subtype` or `type/*`, lower case');
      }
    }

    const bounded = type === 'number' || type === 'amount';
    const bounds: [string, unknown][] = [
      ['min', min],
      ['max', max],
    ];
    let boundsOk = true;
    for (const [name, v] of bounds) {
      if (v === undefined) continue;
      if (known && !bounded) {
        add(name, 'format', `${name} is only allowed on number and amount fields`);
        boundsOk = false;
      } else if (typeof v !== 'number' || !Number.isFinite(v)) {
        add(name, 'type', `${name} must be a finite number`);
        boundsOk = false;
      } else if (type === 'amount' && !hasAtMostTwoDecimals(v)) {
        add(name, 'format', `${name} of an amount is in yuan with at most two decimals`);
        boundsOk = false;
      }
    }
    if (boundsOk && bounded) {
      const lo = typeof min === 'number' ? min : type === 'amount' ? 0 : undefined;
      if (lo !== undefined && typeof max === 'number' && lo > max) {
        add(min === undefined ? 'max' : 'min', 'range', `min (${lo}) must not exceed max (${max})`);
      }
    }
  });
  return problems;
}
