import { describe, expect, it } from 'vitest';
import type { Setting } from '../../../api/systemAdmin';
import { formOf, jsonProblem, previewOf, SETTING_KEY, valueField, valueOf } from './settingValue';

const setting = (type: Setting['type'], value: unknown): Setting => ({
  key: 'mail.footer',
  type,
  value,
  description: 'About it',
  updated_by: 1,
  updated_at: '2024-01-01T00:00:00.000Z',
});

describe('a setting in the editor', () => {
  it('holds each type in its own field and sends it back with its type', () => {
    for (const [type, value, field] of [
      ['string', 'Thanks', 'text'],
      ['number', 2.5, 'number'],
      ['boolean', true, 'flag'],
      ['json', { a: [1, 'x'], b: null }, 'text'],
    ] as const) {
      const form = formOf(setting(type, value));
      expect(valueField(type)).toBe(field);
      expect(form).toMatchObject({ key: 'mail.footer', type, description: 'About it' });
      expect(valueOf(form)).toEqual(value);
    }
  });

  it('shows JSON pretty printed, and a new setting as an empty string', () => {
    expect(formOf(setting('json', { a: 1 })).text).toBe('{\n  "a": 1\n}');
    expect(formOf(null)).toMatchObject({ type: 'string', text: '' });
    expect(valueOf({ key: 'k', type: 'boolean' })).toBe(false);
  });

  it('says why a JSON text does not parse, and nothing when it does', () => {
    expect(jsonProblem('{"a": 1}')).toBeNull();
    expect(jsonProblem('null')).toBeNull();
    expect(jsonProblem('{a: 1}')).toEqual(expect.any(String));
    expect(jsonProblem('')).toEqual(expect.any(String));
  });

  it('previews JSON on one line and takes only the keys the API takes', () => {
    expect(previewOf('json', { a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(previewOf('number', 3)).toBe('3');
    expect(SETTING_KEY.test('mail.footer_2-x')).toBe(true);
    expect(SETTING_KEY.test('Mail')).toBe(false);
    expect(SETTING_KEY.test('2fa')).toBe(false);
  });
});
