import { yuanToCents } from '@engine/form';
import { CONDITION_OPS } from '@engine/validate-condition';
import type { Condition, ConditionOp, FieldType, FlowNode, FormSchema } from '../../../api/bpm';
import { walkTree } from '../../../diagram/tree';
import { formatCents } from '../../../form/rules';

/** The operators the server's conditions support (the engine's own list). */
export const OPS = CONDITION_OPS;
/** What a person or department field can be compared by: its id, a list of ids, or emptiness. */
export const ID_OPS: readonly ConditionOp[] = ['eq', 'ne', 'in', 'not_in', 'empty', 'not_empty'];

/** What a file field can be compared by: whether it holds files at all (the engine's rule). */
export const FILE_OPS: readonly ConditionOp[] = ['empty', 'not_empty'];

/** Fields holding a directory id: compared with a person / department picker, not typed text. */
export const isIdField = (type: FieldType | undefined): type is 'user' | 'dept' =>
  type === 'user' || type === 'dept';

/** The operators offered for a field of this type. */
export function opsFor(type: FieldType | undefined): readonly ConditionOp[] {
  if (type === 'file') return FILE_OPS;
  return isIdField(type) ? ID_OPS : OPS;
}

/** The operator a row keeps when its field changes: its own if the new field takes it. */
export function opAfterFieldChange(type: FieldType | undefined, op: ConditionOp): ConditionOp {
  const ops = opsFor(type);
  return ops.includes(op) ? op : (ops[0] ?? 'eq');
}

/** A row's text value as ids ("3,5" → [3, 5]), for the pickers. */
export function idsOfText(text: string | undefined): number[] {
  return (text ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

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
    if (isIdField(type)) return Number(text);
    if (row.field === 'initiator.dept_id' || row.field === 'initiator.role_ids')
      return Number(text);
    return text;
  };
  const text = row.value ?? '';
  if ((row.op === 'in' || row.op === 'not_in') && isIdField(type)) return idsOfText(text);
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

/** Names of the people and departments a condition names by id (undefined: not known yet). */
export interface ConditionNames {
  user: (id: number) => string | undefined;
  dept: (id: number) => string | undefined;
}

/**
 * A condition in words: amounts in yuan as the designer typed them (stored in cents), people
 * and departments by name (by id until their names are known).
 */
export function conditionText(
  c: Condition | undefined,
  schema: FormSchema,
  names?: ConditionNames,
  words: ConditionWords = SYMBOLS,
): string {
  if (!c) return '';
  // A nested group in parentheses, so "a OR (b AND c)" reads as it is evaluated.
  const part = (x: Condition) =>
    'field' in x
      ? conditionText(x, schema, names, words)
      : `(${conditionText(x, schema, names, words)})`;
  if ('all' in c) return c.all.map(part).join(` ${words.and} `);
  if ('any' in c) return c.any.map(part).join(` ${words.or} `);
  const field = schema.fields.find((f) => f.key === c.field);
  const value = c.value === undefined ? '' : ` ${valueText(c.value, field?.type, names)}`;
  return `${field?.label ?? c.field} ${words.op(c.op)}${value}`;
}

/** How operators and groups read: symbols by default, the reader's language when given. */
export interface ConditionWords {
  op: (op: ConditionOp) => string;
  and: string;
  or: string;
}
const SYMBOLS: ConditionWords = { op: (op) => op, and: 'AND', or: 'OR' };

/** An amount in cents as yuan with thousands separators: 100000 → "¥1,000.00". */
export function yuanText(cents: number): string {
  const [whole, fraction] = formatCents(Math.abs(cents)).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}¥${grouped}.${fraction}`;
}

/** A compared value in words: amounts in yuan, people and departments by name. */
export function valueText(v: unknown, type: FieldType | undefined, names?: ConditionNames): string {
  if (Array.isArray(v)) return v.map((x) => valueText(x, type, names)).join(', ');
  if (type === 'amount' && typeof v === 'number') return yuanText(v);
  if (isIdField(type) && typeof v === 'number') return names?.[type](v) ?? `#${v}`;
  if (typeof v === 'string') return `"${v}"`;
  return JSON.stringify(v);
}

/** The user and department ids the tree's branch conditions compare with, for their names. */
export function conditionIds(
  tree: FlowNode,
  schema: FormSchema,
): { user: number[]; dept: number[] } {
  const out = { user: new Set<number>(), dept: new Set<number>() };
  const visit = (c: Condition | undefined) => {
    if (!c) return;
    if ('all' in c) return c.all.forEach(visit);
    if ('any' in c) return c.any.forEach(visit);
    const type = schema.fields.find((f) => f.key === c.field)?.type;
    if (!isIdField(type)) return;
    for (const v of Array.isArray(c.value) ? c.value : [c.value])
      if (typeof v === 'number') out[type].add(v);
  };
  walkTree(tree, (n) => {
    if (n.type === 'branch') for (const b of n.branches) visit(b.condition);
  });
  return { user: [...out.user], dept: [...out.dept] };
}
