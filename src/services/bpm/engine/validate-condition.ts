/**
 * Publish-time checks of branch conditions (see validate-tree.ts for the decisions where BPM.md
 * is silent): the field exists, the operator fits its type, the value fits the operator.
 */
import type { FieldProblem } from '../../../platform/errors.js';
import { isCalendarDate, isPlainObject } from './form.js';
import type { ConditionOp, FieldType, FormField } from './types.js';

export const MAX_CONDITION_DEPTH = 50;

type Rule = FieldProblem['rule'];

const isPositiveId = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) > 0;
export const CONDITION_OPS: readonly ConditionOp[] = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not_in',
  'contains',
  'empty',
  'not_empty',
];

/** What a condition's `field` names: a form field's type or one of the initiator's attributes. */
type FieldKind = FieldType | 'dept_id' | 'role_ids';

const COMMON_OPS: ConditionOp[] = ['eq', 'ne', 'in', 'not_in', 'empty', 'not_empty'];
const ORDERED_OPS: ConditionOp[] = [...COMMON_OPS, 'gt', 'gte', 'lt', 'lte'];
const OPS_BY_KIND: Record<FieldKind, ConditionOp[]> = {
  input: [...COMMON_OPS, 'contains'],
  textarea: [...COMMON_OPS, 'contains'],
  select: COMMON_OPS,
  radio: COMMON_OPS,
  switch: COMMON_OPS,
  number: ORDERED_OPS,
  amount: ORDERED_OPS,
  date: ORDERED_OPS,
  user: COMMON_OPS,
  dept: COMMON_OPS,
  // A file field is compared by whether it holds files at all.
  file: ['empty', 'not_empty'],
  dept_id: COMMON_OPS,
  role_ids: ['in', 'not_in', 'contains', 'empty', 'not_empty'],
};

/**
 * Checks one branch condition against the form's fields (and the initiator's attributes),
 * reporting each problem through `report` with its path inside the condition.
 */
export function checkCondition(
  fields: Map<string, FormField>,
  report: (rule: Rule, message: string) => void,
  cond: unknown,
  path: string,
  depth: number,
): void {
  const say = (rule: Rule, message: string): void => report(rule, `${path}: ${message}`);
  if (depth > MAX_CONDITION_DEPTH) {
    say('range', `conditions are nested deeper than ${MAX_CONDITION_DEPTH} levels`);
    return;
  }
  if (!isPlainObject(cond)) {
    say('type', 'a condition must be an object');
    return;
  }
  const shapes = (['field', 'all', 'any'] as const).filter((k) => cond[k] !== undefined);
  const shape = shapes[0];
  if (shapes.length !== 1 || shape === undefined) {
    say('format', 'a condition is exactly one of {field, op, value}, {all: [...]}, {any: [...]}');
    return;
  }
  if (shape !== 'field') {
    const list = cond[shape];
    if (!Array.isArray(list)) say('type', `${shape} must be an array of conditions`);
    else if (list.length === 0) say('required', `${shape} must hold at least one condition`);
    else
      list.forEach((c, i) =>
        checkCondition(fields, report, c, `${path}.${shape}[${i}]`, depth + 1),
      );
    return;
  }
  checkComparison(fields, cond, say);
}

function fieldKind(fields: Map<string, FormField>, name: string): FieldKind | undefined {
  if (name === 'initiator.dept_id') return 'dept_id';
  if (name === 'initiator.role_ids') return 'role_ids';
  return fields.get(name)?.type;
}

function checkComparison(
  fields: Map<string, FormField>,
  cond: Record<string, unknown>,
  say: (rule: Rule, message: string) => void,
): void {
  const { field, op, value } = cond;
  if (typeof field !== 'string') {
    say('type', 'field must be a string');
    return;
  }
  const kind = fieldKind(fields, field);
  if (kind === undefined) {
    say('option', `field "${field}" is neither a declared form field nor an initiator.* field`);
  }
  if (op === undefined) {
    say('required', 'op is required');
    return;
  }
  if (typeof op !== 'string' || !(CONDITION_OPS as readonly string[]).includes(op)) {
    say('option', `op must be one of ${CONDITION_OPS.join(', ')}`);
    return;
  }
  if (kind === undefined) return;
  const operator = op as ConditionOp;
  const kindText =
    kind === 'dept_id' || kind === 'role_ids' ? `initiator.${kind}` : `${kind} field`;
  if (!OPS_BY_KIND[kind].includes(operator)) {
    say('type', `operator ${op} does not fit ${kindText} "${field}"`);
    return;
  }
  const options = fields.get(field)?.options ?? [];
  if (operator === 'empty' || operator === 'not_empty') {
    if (value !== undefined && value !== null) say('format', `operator ${op} takes no value`);
    return;
  }
  if (value === undefined) {
    say('required', `operator ${op} needs a value`);
    return;
  }
  if (operator === 'in' || operator === 'not_in') {
    if (!Array.isArray(value)) say('type', `operator ${op} needs an array value`);
    else if (value.length === 0) say('required', `operator ${op} needs at least one value`);
    else {
      const elementKind = kind === 'role_ids' ? 'dept_id' : kind;
      const bad = value.map((v) => valueProblem(elementKind, v, options)).find((p) => p !== null);
      if (bad) say(bad[0], `every value of ${op} ${bad[1]}`);
    }
    return;
  }
  if (kind === 'role_ids') {
    // Only contains is left here: one role id.
    if (!isPositiveId(value)) say('type', 'contains on initiator.role_ids takes one role id');
    return;
  }
  if (operator === 'contains') {
    if (typeof value !== 'string') say('type', 'contains needs a string value');
    else if (value === '') say('required', 'contains needs a non-empty string');
    return;
  }
  const bad = valueProblem(kind, value, options);
  if (bad) say(bad[0], `the value ${bad[1]}`);
}

/** Why `value` cannot be compared with a field of `kind`, or null when it can. */
function valueProblem(kind: FieldKind, value: unknown, options: string[]): [Rule, string] | null {
  switch (kind) {
    case 'input':
    case 'textarea':
      return typeof value === 'string' ? null : ['type', 'must be a string'];
    case 'select':
    case 'radio':
      if (typeof value !== 'string') return ['type', 'must be a string'];
      return options.length === 0 || options.includes(value)
        ? null
        : ['option', `must be one of the field's options`];
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : ['type', 'must be a number'];
    case 'amount':
      return Number.isSafeInteger(value)
        ? null
        : ['type', 'must be an integer number of cents (1000000 is 10 000 yuan)'];
    case 'date':
      return typeof value === 'string' && isCalendarDate(value)
        ? null
        : ['type', 'must be a date as YYYY-MM-DD'];
    case 'switch':
      return typeof value === 'boolean' ? null : ['type', 'must be true or false'];
    case 'user':
    case 'dept':
    case 'dept_id':
    case 'role_ids':
      return isPositiveId(value) ? null : ['type', 'must be a positive integer id'];
    case 'file':
      return ['type', 'a file field is only compared with empty or not_empty'];
  }
}
