import type { FieldProblem } from '../../../platform/errors.js';
import { MAX_SETTING_BYTES, MAX_STRING_SETTING, type SettingType } from './settings.schema.js';

/** Why `value` is not a valid setting of `type`, or undefined when it is. */
export function settingValueProblem(type: SettingType, value: unknown): FieldProblem | undefined {
  const problem = (rule: FieldProblem['rule'], message: string): FieldProblem => ({
    field: 'value',
    rule,
    message,
  });
  if (value === undefined) return problem('required', 'a value is required');
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return problem('type', 'must be a string');
      if (value.length > MAX_STRING_SETTING)
        return problem('max_length', `at most ${MAX_STRING_SETTING} characters`);
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return problem('type', 'must be a finite number');
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return problem('type', 'must be true or false');
      break;
    case 'json':
      break;
  }
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_SETTING_BYTES)
    return problem('max_length', `at most ${MAX_SETTING_BYTES} bytes of JSON`);
  return undefined;
}
