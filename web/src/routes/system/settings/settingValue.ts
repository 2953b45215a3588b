/**
 * A setting's typed value as the editor holds it: text for a string and for JSON (pretty
 * printed), a number, or a switch; and back into the `{type, value}` the API takes. JSON is
 * parsed here, before anything is sent.
 */
import type { Setting, SettingType } from '../../../api/systemAdmin';

export const SETTING_TYPES: readonly SettingType[] = ['string', 'number', 'boolean', 'json'];

/** `:key`: lower-case letters, digits, `.`, `_`, `-`, from a letter, at most 100 (docs/api.md). */
export const SETTING_KEY = /^[a-z][a-z0-9._-]{0,99}$/;
export const MAX_STRING_SETTING = 10_000;

export interface SettingForm {
  key: string;
  type: SettingType;
  /** The string, or the JSON text. */
  text?: string;
  number?: number | null;
  flag?: boolean;
  description?: string;
}

/** The form field that holds a value of this type. */
export function valueField(type: SettingType): 'text' | 'number' | 'flag' {
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'flag';
  return 'text';
}

/** The editor's values for a setting, or for a new one (a string). */
export function formOf(setting: Setting | null): SettingForm {
  if (!setting) return { key: '', type: 'string', text: '', flag: false, description: '' };
  const base = { key: setting.key, type: setting.type, description: setting.description };
  switch (setting.type) {
    case 'number':
      return { ...base, number: setting.value as number };
    case 'boolean':
      return { ...base, flag: setting.value === true };
    case 'json':
      return { ...base, text: JSON.stringify(setting.value, null, 2) };
    default:
      return { ...base, text: String(setting.value) };
  }
}

/** Why a JSON text does not parse (the parser's words), or null when it does. */
export function jsonProblem(text: string | undefined): string | null {
  try {
    JSON.parse(text ?? '');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The value to send for the editor's values (JSON already checked by the form's rule). */
export function valueOf(form: SettingForm): unknown {
  switch (form.type) {
    case 'number':
      return form.number;
    case 'boolean':
      return form.flag === true;
    case 'json':
      return JSON.parse(form.text ?? '') as unknown;
    default:
      return form.text ?? '';
  }
}

/** A value on one line for the table: JSON compact, a string as it is. */
export function previewOf(type: SettingType, value: unknown): string {
  return type === 'json' ? JSON.stringify(value) : String(value);
}
