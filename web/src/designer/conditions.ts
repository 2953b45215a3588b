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

/** A group of the builder: comparisons and nested groups joined by all (and) or any (or). */
export interface ConditionGroup {
  join: 'all' | 'any';
  items: ConditionItem[];
}
export type ConditionItem = ConditionRow | ConditionGroup;

export const isGroup = (item: ConditionItem): item is ConditionGroup => 'items' in item;

/**
 * The builder's tree for a stored condition: the server's `all` / `any` groups nest, and so do
 * the builder's (a lone comparison is a group of one).
 */
export function toGroup(c: Condition | undefined, schema: FormSchema): ConditionGroup {
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
  const item = (x: Condition): ConditionItem =>
    'field' in x
      ? { field: x.field, op: x.op, value: show(x.field, x.value) }
      : 'all' in x
        ? { join: 'all', items: x.all.map(item) }
        : { join: 'any', items: x.any.map(item) };
  if (!c) return { join: 'all', items: [] };
  const top = item(c);
  return isGroup(top) ? top : { join: 'all', items: [top] };
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

/** The stored condition of a builder tree; empty groups are left out, a group of one is its item. */
export function fromGroup(schema: FormSchema, group: ConditionGroup): Condition | undefined {
  const list = group.items
    .map((item): Condition | undefined => {
      if (isGroup(item)) return fromGroup(schema, item);
      const value = toValue(schema, item);
      return value === undefined
        ? { field: item.field, op: item.op }
        : { field: item.field, op: item.op, value };
    })
    .filter((c): c is Condition => c !== undefined);
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return group.join === 'all' ? { all: list } : { any: list };
}
