/**
 * The console refuses exactly what the server refuses: the cases of the engine's own form tests
 * (src/services/bpm/engine/form.test.ts), run through the renderer's per-field check.
 */
import { describe, expect, it } from 'vitest';
import type { FieldType, FormField } from '../api/bpm';
import { fieldProblem, formatCents, fromSnapshot, normalizeYuan, toSubmission } from './rules';

const one = (type: FieldType, extra: Partial<FormField> = {}): FormField => ({
  key: 'f',
  label: 'F',
  type,
  ...extra,
});

describe('fieldProblem: required and absent values', () => {
  it.each([undefined, null, ''])('refuses %j for a required field', (value) => {
    expect(fieldProblem(one('input', { required: true }), value)).toBe('required');
  });
  it.each([undefined, null, ''])('accepts %j for an optional field', (value) => {
    expect(fieldProblem(one('number'), value)).toBeNull();
  });
  it('accepts false for a required switch and 0 for a required number', () => {
    expect(fieldProblem(one('switch', { required: true }), false)).toBeNull();
    expect(fieldProblem(one('number', { required: true }), 0)).toBeNull();
  });
});

describe('fieldProblem: text', () => {
  it.each(['input', 'textarea'] as const)(
    'accepts 2000 characters and refuses 2001 (%s)',
    (type) => {
      expect(fieldProblem(one(type), 'x'.repeat(2000))).toBeNull();
      expect(fieldProblem(one(type), 'x'.repeat(2001))).toBe('max_length');
    },
  );
  it('counts code points, so 2000 emoji fit', () => {
    expect(fieldProblem(one('input'), '😀'.repeat(2000))).toBeNull();
    expect(fieldProblem(one('input'), '😀'.repeat(2001))).toBe('max_length');
  });
  it('keeps whitespace as a value', () => {
    expect(fieldProblem(one('input', { required: true }), '  ')).toBeNull();
  });
});

describe('fieldProblem: number', () => {
  const bounded = one('number', { min: -5, max: 10 });
  it('accepts the edges and refuses just outside', () => {
    expect(fieldProblem(bounded, -5)).toBeNull();
    expect(fieldProblem(bounded, 10)).toBeNull();
    expect(fieldProblem(bounded, 10.5)).toBe('range');
    expect(fieldProblem(bounded, -5.01)).toBe('range');
  });
  it.each([NaN, Infinity, '12', true])('refuses %j as a type problem', (value) => {
    expect(fieldProblem(one('number'), value)).toBe('type');
  });
});

describe('fieldProblem: amount in yuan', () => {
  it.each(['19.99', '0.1', '007.5', '0.01', '100', '0'])('accepts %j', (value) => {
    expect(fieldProblem(one('amount'), value)).toBeNull();
  });
  it.each(['1.001', '12,5', '1e3', ' 12', '12.', '.5', '+3', 'abc', 'NaN', 'Infinity'])(
    'refuses %j as a format problem',
    (value) => {
      expect(fieldProblem(one('amount'), value)).toBe('format');
    },
  );
  it('refuses negative amounts unless min allows them', () => {
    expect(fieldProblem(one('amount'), '-0.01')).toBe('range');
    expect(fieldProblem(one('amount', { min: -10 }), '-10')).toBeNull();
    expect(fieldProblem(one('amount', { min: -10 }), '-10.01')).toBe('range');
  });
  it('applies min and max in yuan, edges included', () => {
    const field = one('amount', { min: 0.5, max: 10000 });
    expect(fieldProblem(field, '0.5')).toBeNull();
    expect(fieldProblem(field, '0.49')).toBe('range');
    expect(fieldProblem(field, '10000')).toBeNull();
    expect(fieldProblem(field, '10000.01')).toBe('range');
  });
  it('refuses amounts too large for exact cents', () => {
    expect(fieldProblem(one('amount'), '99999999999999999')).toBe('range');
  });
});

describe('fieldProblem: choices, dates, switches', () => {
  it.each(['select', 'radio'] as const)('accepts a listed option only (%s)', (type) => {
    const field = one(type, { options: ['Annual', 'Sick'] });
    expect(fieldProblem(field, 'Sick')).toBeNull();
    expect(fieldProblem(field, 'sick')).toBe('option');
    expect(fieldProblem(field, 'Sick ')).toBe('option');
  });
  it('knows leap days and refuses impossible dates', () => {
    expect(fieldProblem(one('date'), '2024-02-29')).toBeNull();
    expect(fieldProblem(one('date'), '2025-02-29')).toBe('format');
    expect(fieldProblem(one('date'), '2026-02-30')).toBe('format');
    expect(fieldProblem(one('date'), '2026/04/01')).toBe('format');
  });
  it('takes only booleans for a switch', () => {
    expect(fieldProblem(one('switch'), true)).toBeNull();
    expect(fieldProblem(one('switch'), 'true')).toBe('type');
  });
});

describe('amount display and submission', () => {
  it('shows stored cents as yuan with two decimals', () => {
    expect(formatCents(1999)).toBe('19.99');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-1000)).toBe('-10.00');
    expect(fromSnapshot({ fields: [one('amount')] }, { f: 1250 })).toEqual({ f: '12.50' });
  });
  it('pads a typed amount to two decimals and leaves invalid text alone', () => {
    expect(normalizeYuan('12.5')).toBe('12.50');
    expect(normalizeYuan('12')).toBe('12.00');
    expect(normalizeYuan('1.001')).toBe('1.001');
  });
  it('leaves empty values out of the submitted form', () => {
    const schema = { fields: [one('input'), { ...one('number'), key: 'n' }] };
    expect(toSubmission(schema, { f: '', n: 3, extra: 1 })).toEqual({ n: 3 });
  });
});
