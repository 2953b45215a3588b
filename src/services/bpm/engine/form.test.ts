import { describe, expect, it } from 'vitest';
import {
  isCalendarDate,
  validateForm,
  validateFormSchema,
  yuanToCents,
  type FormValidation,
} from './form.js';
import type { FieldType, FormField, FormSchema } from './types.js';

function one(type: FieldType, extra: Partial<FormField> = {}): FormSchema {
  return { fields: [{ key: 'f', label: 'F', type, ...extra }] };
}

function problemsOf(result: FormValidation) {
  return result.ok ? [] : result.problems;
}

/** The rule of the one problem on field `f`, or 'ok' with the stored value. */
function check(schema: FormSchema, value: unknown): unknown {
  const result = validateForm(schema, { f: value });
  if (result.ok) return { ok: result.form.f };
  expect(result.problems).toHaveLength(1);
  expect(result.problems[0]?.field).toBe('f');
  return result.problems[0]?.rule;
}

describe('validateForm: the input', () => {
  it.each([null, [], 'x', 3, new Date()])('refuses %j as a form with one type problem', (input) => {
    expect(validateForm(one('input'), input)).toEqual({
      ok: false,
      problems: [{ field: '', rule: 'type', message: expect.any(String) }],
    });
  });

  it('drops undeclared keys silently', () => {
    const result = validateForm(one('input'), { f: 'a', extra: 1, __proto__x: 2 });
    expect(result).toEqual({ ok: true, form: { f: 'a' } });
  });

  it('ignores inherited keys', () => {
    const input = Object.create({ f: 'inherited' }) as object;
    expect(validateForm(one('input', { required: true }), input).ok).toBe(false);
  });

  it('reports every violation at once, one entry per field, named by key', () => {
    const schema: FormSchema = {
      fields: [
        { key: 'title', label: 'Title', type: 'input', required: true },
        { key: 'days', label: 'Days', type: 'number', min: 1, max: 30 },
        { key: 'cost', label: 'Cost', type: 'amount' },
        { key: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
        { key: 'day', label: 'Day', type: 'date' },
        { key: 'urgent', label: 'Urgent', type: 'switch' },
        { key: 'ok', label: 'Fine', type: 'input' },
      ],
    };
    const result = validateForm(schema, {
      days: 31,
      cost: '1.234',
      kind: 'c',
      day: '2026-02-30',
      urgent: 'yes',
      ok: 'fine',
    });
    expect(problemsOf(result).map((p) => [p.field, p.rule])).toEqual([
      ['title', 'required'],
      ['days', 'range'],
      ['cost', 'format'],
      ['kind', 'option'],
      ['day', 'format'],
      ['urgent', 'type'],
    ]);
    for (const p of problemsOf(result)) expect(p.message.length).toBeGreaterThan(5);
  });

  it('keeps a key named __proto__ as an own property', () => {
    const schema = { fields: [{ key: 'a', label: 'A', type: 'input' as const }] };
    const input = JSON.parse('{"a":"x","__proto__":{"polluted":true}}') as unknown;
    const result = validateForm(schema, input);
    expect(result).toEqual({ ok: true, form: { a: 'x' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('validateForm: required and absent values', () => {
  it.each([undefined, null, ''])('refuses %j for a required field', (value) => {
    const input = value === undefined ? {} : { f: value };
    expect(problemsOf(validateForm(one('input', { required: true }), input))).toEqual([
      { field: 'f', rule: 'required', message: 'F is required' },
    ]);
  });

  it.each([undefined, null, ''])('omits %j for an optional field', (value) => {
    const input = value === undefined ? {} : { f: value };
    expect(validateForm(one('number'), input)).toEqual({ ok: true, form: {} });
  });

  it('accepts false for a required switch', () => {
    expect(check(one('switch', { required: true }), false)).toEqual({ ok: false });
  });

  it('accepts 0 for a required number', () => {
    expect(check(one('number', { required: true }), 0)).toEqual({ ok: 0 });
  });
});

describe('validateForm: input and textarea', () => {
  it.each(['input', 'textarea'] as const)(
    'accepts 2000 characters and refuses 2001 (%s)',
    (type) => {
      expect(check(one(type), 'x'.repeat(2000))).toEqual({ ok: 'x'.repeat(2000) });
      expect(check(one(type), 'x'.repeat(2001))).toBe('max_length');
    },
  );

  it('counts code points, so 2000 emoji fit', () => {
    expect(check(one('input'), '😀'.repeat(2000))).toEqual({ ok: '😀'.repeat(2000) });
    expect(check(one('input'), '😀'.repeat(2001))).toBe('max_length');
  });

  it.each([12, true, ['a'], { a: 1 }])('refuses %j as text', (value) => {
    expect(check(one('textarea'), value)).toBe('type');
  });

  it('keeps text as sent, whitespace included', () => {
    expect(check(one('input', { required: true }), '  ')).toEqual({ ok: '  ' });
  });
});

describe('validateForm: number', () => {
  const bounded = one('number', { min: -5, max: 10 });

  it('accepts the min and max edges and refuses just outside', () => {
    expect(check(bounded, -5)).toEqual({ ok: -5 });
    expect(check(bounded, 10)).toEqual({ ok: 10 });
    expect(check(bounded, 10.5)).toBe('range');
    expect(check(bounded, -5.01)).toBe('range');
  });

  it('accepts fractions', () => {
    expect(check(one('number'), 2.5)).toEqual({ ok: 2.5 });
  });

  it.each([NaN, Infinity, -Infinity, '12', true])('refuses %j', (value) => {
    expect(check(one('number'), value)).toBe('type');
  });
});

describe('validateForm: amount', () => {
  it('stores yuan as integer cents', () => {
    expect(check(one('amount'), 19.99)).toEqual({ ok: 1999 });
    expect(check(one('amount'), '19.99')).toEqual({ ok: 1999 });
    expect(check(one('amount'), 0.29)).toEqual({ ok: 29 });
    expect(check(one('amount'), '0.1')).toEqual({ ok: 10 });
    expect(check(one('amount'), 100)).toEqual({ ok: 10000 });
    expect(check(one('amount'), '007.5')).toEqual({ ok: 750 });
  });

  it('accepts 0.01 yuan as 1 cent and 0 as 0', () => {
    expect(check(one('amount'), '0.01')).toEqual({ ok: 1 });
    expect(check(one('amount'), 0.01)).toEqual({ ok: 1 });
    expect(check(one('amount'), 0)).toEqual({ ok: 0 });
  });

  it('refuses three decimals, as text or as a float sum like 0.1 + 0.2', () => {
    expect(check(one('amount'), '1.001')).toBe('format');
    expect(check(one('amount'), 1.005)).toBe('format');
    expect(check(one('amount'), 0.1 + 0.2)).toBe('format');
  });

  it.each(['12,5', '1e3', ' 12', '12.', '.5', '+3', 'abc', 'NaN', 'Infinity'])(
    'refuses the string %j as a format problem',
    (value) => {
      expect(check(one('amount'), value)).toBe('format');
    },
  );

  it.each([NaN, Infinity, true, [1], { yuan: 1 }])('refuses %j as a type problem', (value) => {
    expect(check(one('amount'), value)).toBe('type');
  });

  it('refuses negative amounts unless min allows them', () => {
    expect(check(one('amount'), -0.01)).toBe('range');
    expect(check(one('amount'), '-1')).toBe('range');
    expect(check(one('amount', { min: -10 }), '-10')).toEqual({ ok: -1000 });
    expect(check(one('amount', { min: -10 }), '-10.01')).toBe('range');
  });

  it('applies min and max in yuan, edges included', () => {
    const schema = one('amount', { min: 0.5, max: 10000 });
    expect(check(schema, '0.5')).toEqual({ ok: 50 });
    expect(check(schema, '0.49')).toBe('range');
    expect(check(schema, 10000)).toEqual({ ok: 1000000 });
    expect(check(schema, '10000.01')).toBe('range');
  });

  it('refuses amounts too large for exact cents', () => {
    expect(check(one('amount'), 1e21)).toBe('range');
    expect(check(one('amount'), '99999999999999999')).toBe('range');
  });

  it('does not store negative zero', () => {
    const result = yuanToCents('-0.00');
    expect(result).toEqual({ ok: true, cents: 0 });
    expect(result.ok && Object.is(result.cents, -0)).toBe(false);
  });
});

describe('validateForm: select and radio', () => {
  it.each(['select', 'radio'] as const)(
    'accepts a listed option and refuses others (%s)',
    (type) => {
      const schema = one(type, { options: ['Annual', 'Sick'] });
      expect(check(schema, 'Sick')).toEqual({ ok: 'Sick' });
      expect(check(schema, 'sick')).toBe('option');
      expect(check(schema, 'Sick ')).toBe('option');
      expect(check(schema, 1)).toBe('option');
    },
  );
});

describe('validateForm: date', () => {
  it('accepts a leap day in a leap year and refuses it otherwise', () => {
    expect(check(one('date'), '2024-02-29')).toEqual({ ok: '2024-02-29' });
    expect(check(one('date'), '2025-02-29')).toBe('format');
  });

  it('refuses 2026-02-30', () => {
    expect(check(one('date'), '2026-02-30')).toBe('format');
  });

  it.each([
    '2026-4-1',
    '2026/04/01',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '2026-04-01T00:00:00Z',
  ])('refuses %j', (value) => {
    expect(check(one('date'), value)).toBe('format');
  });

  it('knows the century rule: 1900 is not leap, 2000 is', () => {
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2026-12-31')).toBe(true);
  });

  it('refuses a non-string as a type problem', () => {
    expect(check(one('date'), 20260401)).toBe('type');
  });
});

describe('validateForm: switch', () => {
  it.each([true, false])('accepts %j', (value) => {
    expect(check(one('switch'), value)).toEqual({ ok: value });
  });

  it.each(['true', 1, 0])('refuses %j', (value) => {
    expect(check(one('switch'), value)).toBe('type');
  });
});

describe('validateFormSchema', () => {
  const rules = (schema: unknown) => validateFormSchema(schema).map((p) => [p.field, p.rule]);

  it('accepts a schema using every field type', () => {
    expect(
      validateFormSchema({
        fields: [
          { key: 'title', label: 'Title', type: 'input', required: true },
          { key: 'reason', label: 'Reason', type: 'textarea' },
          { key: 'days', label: 'Days', type: 'number', min: 0.5, max: 30 },
          { key: 'amount', label: 'Amount', type: 'amount', min: 0, max: 99999.99 },
          { key: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
          { key: 'level', label: 'Level', type: 'radio', options: ['x'] },
          { key: 'day', label: 'Day', type: 'date' },
          { key: 'urgent', label: 'Urgent', type: 'switch', extra: 'ignored' },
        ],
      }),
    ).toEqual([]);
  });

  it('accepts an empty field list', () => {
    expect(validateFormSchema({ fields: [] })).toEqual([]);
  });

  it('refuses a schema that is not an object or has no fields array', () => {
    expect(rules(null)).toEqual([['form_schema', 'type']]);
    expect(rules({})).toEqual([['form_schema.fields', 'required']]);
    expect(rules({ fields: {} })).toEqual([['form_schema.fields', 'type']]);
  });

  it('refuses a field that is not an object', () => {
    expect(rules({ fields: ['x'] })).toEqual([['form_schema.fields[0]', 'type']]);
  });

  it('refuses missing, malformed, reserved and duplicate keys', () => {
    expect(
      rules({
        fields: [
          { label: 'A', type: 'input' },
          { key: '1abc', label: 'B', type: 'input' },
          { key: 'a'.repeat(65), label: 'C', type: 'input' },
          { key: 'ok', label: 'D', type: 'input' },
          { key: 'ok', label: 'E', type: 'input' },
          { key: '__proto__', label: 'F', type: 'input' },
          { key: 7, label: 'G', type: 'input' },
          { key: 'a-b', label: 'H', type: 'input' },
        ],
      }),
    ).toEqual([
      ['form_schema.fields[0].key', 'required'],
      ['form_schema.fields[1].key', 'format'],
      ['form_schema.fields[2].key', 'format'],
      ['form_schema.fields[4].key', 'format'],
      ['form_schema.fields[5].key', 'format'],
      ['form_schema.fields[6].key', 'type'],
      ['form_schema.fields[7].key', 'format'],
    ]);
  });

  it('accepts a 64-character key', () => {
    expect(rules({ fields: [{ key: 'a'.repeat(64), label: 'A', type: 'input' }] })).toEqual([]);
  });

  it('refuses a missing or non-string label, an unknown type and a non-boolean required', () => {
    expect(
      rules({
        fields: [
          { key: 'a', type: 'input' },
          { key: 'b', label: 3, type: 'input' },
          { key: 'c', label: 'C', type: 'checkbox' },
          { key: 'd', label: 'D' },
          { key: 'e', label: 'E', type: 'input', required: 'yes' },
        ],
      }),
    ).toEqual([
      ['form_schema.fields[0].label', 'required'],
      ['form_schema.fields[1].label', 'type'],
      ['form_schema.fields[2].type', 'option'],
      ['form_schema.fields[3].type', 'required'],
      ['form_schema.fields[4].required', 'type'],
    ]);
  });

  it('requires options on select and radio: a non-empty array of unique non-empty strings', () => {
    expect(
      rules({
        fields: [
          { key: 'a', label: 'A', type: 'select' },
          { key: 'b', label: 'B', type: 'radio', options: 'x' },
          { key: 'c', label: 'C', type: 'select', options: [] },
          { key: 'd', label: 'D', type: 'select', options: ['x', 1] },
          { key: 'e', label: 'E', type: 'select', options: ['x', 'x'] },
          { key: 'f', label: 'F', type: 'radio', options: ['x', ''] },
        ],
      }),
    ).toEqual([
      ['form_schema.fields[0].options', 'required'],
      ['form_schema.fields[1].options', 'type'],
      ['form_schema.fields[2].options', 'required'],
      ['form_schema.fields[3].options', 'type'],
      ['form_schema.fields[4].options', 'format'],
      ['form_schema.fields[5].options', 'format'],
    ]);
  });

  it('refuses options outside select and radio, and min/max outside number and amount', () => {
    expect(
      rules({
        fields: [
          { key: 'a', label: 'A', type: 'input', options: ['x'] },
          { key: 'b', label: 'B', type: 'textarea', max: 10 },
          { key: 'c', label: 'C', type: 'date', min: 1 },
        ],
      }),
    ).toEqual([
      ['form_schema.fields[0].options', 'format'],
      ['form_schema.fields[1].max', 'format'],
      ['form_schema.fields[2].min', 'format'],
    ]);
  });

  it('refuses non-finite bounds, min above max, and amount bounds with three decimals', () => {
    expect(
      rules({
        fields: [
          { key: 'a', label: 'A', type: 'number', min: '1' },
          { key: 'b', label: 'B', type: 'number', max: null },
          { key: 'c', label: 'C', type: 'number', min: 5, max: 4 },
          { key: 'd', label: 'D', type: 'amount', min: 0.001 },
          { key: 'e', label: 'E', type: 'amount', max: -1 },
          { key: 'f', label: 'F', type: 'number', min: 4, max: 4 },
          { key: 'g', label: 'G', type: 'amount', min: -5, max: -1 },
        ],
      }),
    ).toEqual([
      ['form_schema.fields[0].min', 'type'],
      ['form_schema.fields[1].max', 'type'],
      ['form_schema.fields[2].min', 'range'],
      ['form_schema.fields[3].min', 'format'],
      ['form_schema.fields[4].max', 'range'],
    ]);
  });

  it('reports every problem of every field at once', () => {
    const problems = validateFormSchema({
      fields: [{ key: '', label: '', type: 'nope', required: 1 }],
    });
    expect(problems.map((p) => p.field)).toEqual([
      'form_schema.fields[0].key',
      'form_schema.fields[0].label',
      'form_schema.fields[0].type',
      'form_schema.fields[0].required',
    ]);
    for (const p of problems) expect(p.message).toContain('form_schema.fields[0]');
  });
});
