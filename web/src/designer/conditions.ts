import { yuanToCents } from '@engine/form';
import { CONDITION_OPS } from '@engine/validate-condition';
import type { Condition, ConditionOp, FormSchema } from '../api/bpm';
import { formatCents } from '../form/rules';

/** The operators the server's conditions support (the engine's own list). */
export const OPS = CONDITION_OPS;

export interface ConditionRow {
  field: string;
  op: ConditionOp;
  value?: string;
}

/** The builder edits a flat list joined by all/any; nested groups from elsewhere stay as they are. */
export function toRows(
  c: Condition | undefined,
  schema: FormSchema,
): { join: 'all' | 'any'; rows: ConditionRow[] } {
  const show = (field: string, v: unknown): string | undefined => {
    if (v === undefined) return undefined;
    const type = schema.fields.find((f) => f.key === field)?.type;
    if (Array.isArray(v))
      return v
        .map((x) => (type === 'amount' && typeof x === 'number' ? formatCents(x) : String(x)))
        .join(',');
    if (type === 'amount' && typeof v === 'number') return formatCents(v);
    return String(v);
  };
  const row = (x: Condition): ConditionRow | null =>
    'field' in x ? { field: x.field, op: x.op, value: show(x.field, x.value) } : null;
  if (!c) return { join: 'all', rows: [] };
  if ('all' in c)
    return { join: 'all', rows: c.all.map(row).filter((r): r is ConditionRow => r !== null) };
  if ('any' in c)
    return { join: 'any', rows: c.any.map(row).filter((r): r is ConditionRow => r !== null) };
  return { join: 'all', rows: [row(c)!] };
}

/** Typed text to the value the server compares: numbers, cents for amounts, booleans, lists. */
function toValue(schema: FormSchema, row: ConditionRow): unknown {
  if (row.op === 'empty' || row.op === 'not_empty') return undefined;
  const type = schema.fields.find((f) => f.key === row.field)?.type;
  const one = (text: string): unknown => {
    if (type === 'number') return Number(text);
    if (type === 'amount') {
      const c = yuanToCents(text);
      return c.ok ? c.cents : text;
    }
    if (type === 'switch') return text === 'true';
    if (row.field === 'initiator.dept_id' || row.field === 'initiator.role_ids')
      return Number(text);
    return text;
  };
  const text = row.value ?? '';
  if (row.op === 'in' || row.op === 'not_in') return text.split(',').map((s) => one(s.trim()));
  return one(text);
}

export function fromRows(
  schema: FormSchema,
  join: 'all' | 'any',
  rows: ConditionRow[],
): Condition | undefined {
  const list: Condition[] = rows.map((r) => {
    const value = toValue(schema, r);
    return value === undefined ? { field: r.field, op: r.op } : { field: r.field, op: r.op, value };
  });
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return join === 'all' ? { all: list } : { any: list };
}
