/**
 * The form renderer's validation: the engine's own `validateForm` (the code the server runs),
 * applied one field at a time, so the console accepts and refuses exactly what the server does.
 */
import { validateForm } from '@engine/form';
import type { FormField, FormSchema } from '../api/bpm';

export type Rule = 'required' | 'type' | 'option' | 'range' | 'max_length' | 'format';

/** The rule a value breaks, as the server would report it, or null when the server accepts it. */
export function fieldProblem(field: FormField, value: unknown): Rule | null {
  const result = validateForm({ fields: [field] }, { [field.key]: value });
  return result.ok ? null : ((result.problems[0]?.rule as Rule | undefined) ?? 'type');
}

/** Integer cents (as stored) to yuan with two decimals: 1999 → "19.99". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A typed yuan amount shown with two decimals once it is a valid amount ("12.5" → "12.50"). */
export function normalizeYuan(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2]}.${(m[3] ?? '').padEnd(2, '0')}`;
}

/** What the form holds → the body the API takes: empty values left out, as the server stores them. */
export function toSubmission(
  schema: FormSchema,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of schema.fields) {
    const v = values[field.key];
    if (v === undefined || v === null || v === '') continue;
    out[field.key] = v;
  }
  return out;
}

/** A stored snapshot (amounts in cents) → the values the renderer edits (amounts in yuan). */
export function fromSnapshot(
  schema: FormSchema,
  form: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...form };
  for (const field of schema.fields) {
    const v = form[field.key];
    if (field.type === 'amount' && typeof v === 'number') out[field.key] = formatCents(v);
  }
  return out;
}
