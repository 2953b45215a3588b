import type { FormInstance } from 'antd';
import { ApiError, messageOf } from '../api/errors';

/**
 * Puts each `data.fields` entry of a failed call on the form field it names (`form.amount`
 * and `amount` both land on `amount`), and answers the text to show for the rest: null when
 * every problem is on its field (a banner saying "some fields need attention" would repeat them).
 */
export function showServerErrors(
  form: FormInstance,
  error: unknown,
  /** Maps a server field name to the form's name path; default: the last segment. */
  nameOf: (field: string) => (string | number)[] | null = (field) => [field.replace(/^form\./, '')],
): string | null {
  if (!(error instanceof ApiError) || error.fields.length === 0) return messageOf(error);
  const known = new Set(
    Object.keys(form.getFieldsValue(true) as Record<string, unknown>).map((k) => String(k)),
  );
  const rest: string[] = [];
  const byField = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const problem of error.fields) {
    const name = nameOf(problem.field);
    const key = name ? JSON.stringify(name) : null;
    if (name && key && (known.has(String(name[0])) || form.getFieldInstance?.(name))) {
      const entry = byField.get(key) ?? { name, errors: [] };
      entry.errors.push(problem.message);
      byField.set(key, entry);
    } else rest.push(problem.message);
  }
  form.setFields([...byField.values()].map(({ name, errors }) => ({ name, errors })));
  if (rest.length === 0) return null;
  return [messageOf(error), ...rest].join(' ');
}
