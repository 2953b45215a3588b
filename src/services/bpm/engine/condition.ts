import type { Branch, BranchNode, Condition, FormData } from './types.js';

/**
 * Branch conditions. A condition is data, never code. Evaluation never quietly answers false:
 * a missing field, a value of the wrong type for the operator, an unknown operator or a
 * malformed condition is a failure that suspends the instance (BPM.md).
 */

export interface ConditionInput {
  form: FormData;
  initiator: { dept_id: number | null; role_ids: number[] };
}

export type ConditionOutcome =
  | { ok: true; result: boolean; inputs: Record<string, unknown> }
  | { ok: false; error: string; field: string | null; inputs: Record<string, unknown> };

export interface BranchEvaluation {
  branch_id: string;
  /** null for a default branch taken because no other matched (it is not evaluated). */
  condition: Condition | null;
  inputs: Record<string, unknown>;
  /** null when the evaluation failed. */
  result: boolean | null;
}

export type BranchChoice =
  | { ok: true; branch: Branch; evaluations: BranchEvaluation[] }
  | { ok: false; error: string; field: string | null; evaluations: BranchEvaluation[] };

/** `field`: the field whose value failed the evaluation, when one did (else the condition). */
class ConditionError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Value = string | number | boolean | null | number[] | undefined;

function readField(field: string, input: ConditionInput): Value {
  if (field === 'initiator.dept_id') return input.initiator.dept_id;
  if (field === 'initiator.role_ids') return input.initiator.role_ids;
  return Object.hasOwn(input.form, field) ? input.form[field] : undefined;
}

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

const describe = (v: unknown): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;

function isEmpty(v: Value): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Ordering works on two numbers, or on two `YYYY-MM-DD` dates (which sort as strings). */
function compare(field: string, actual: Value, expected: unknown): number {
  if (typeof actual === 'number' && typeof expected === 'number') return actual - expected;
  if (
    typeof actual === 'string' &&
    typeof expected === 'string' &&
    DATE.test(actual) &&
    DATE.test(expected)
  ) {
    return actual < expected ? -1 : actual > expected ? 1 : 0;
  }
  throw new ConditionError(
    `field ${field}: cannot order ${describe(actual)} against ${describe(expected)}`,
    field,
  );
}

function sameType(field: string, actual: Value, expected: unknown): void {
  if (!isScalar(actual) || !isScalar(expected) || typeof actual !== typeof expected) {
    throw new ConditionError(
      `field ${field}: cannot compare ${describe(actual)} with ${describe(expected)}`,
      field,
    );
  }
}

function member(field: string, actual: Value, expected: unknown): boolean {
  if (!Array.isArray(expected)) {
    throw new ConditionError(`field ${field}: in/not_in needs a list, got ${describe(expected)}`);
  }
  // A list field (initiator.role_ids) is a member when any of its elements is.
  const values: unknown[] = Array.isArray(actual) ? actual : [actual];
  for (const v of values) {
    if (!expected.some((e) => isScalar(e) && typeof e === typeof v)) {
      throw new ConditionError(`field ${field}: list holds no ${describe(v)} values`, field);
    }
  }
  return values.some((v) => expected.includes(v));
}

function contains(field: string, actual: Value, expected: unknown): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') return actual.includes(expected);
  if (Array.isArray(actual) && typeof expected === 'number') return actual.includes(expected);
  throw new ConditionError(
    `field ${field}: ${describe(actual)} cannot contain ${describe(expected)}`,
    field,
  );
}

function compareOne(
  c: { field: string; op: string; value?: unknown },
  input: ConditionInput,
  inputs: Record<string, unknown>,
): boolean {
  const actual = readField(c.field, input);
  inputs[c.field] = actual ?? null;
  if (c.op === 'empty') return isEmpty(actual);
  if (c.op === 'not_empty') return !isEmpty(actual);
  if (actual === undefined || actual === null) {
    throw new ConditionError(`field ${c.field} is missing`, c.field);
  }
  switch (c.op) {
    case 'eq':
      sameType(c.field, actual, c.value);
      return actual === c.value;
    case 'ne':
      sameType(c.field, actual, c.value);
      return actual !== c.value;
    case 'gt':
      return compare(c.field, actual, c.value) > 0;
    case 'gte':
      return compare(c.field, actual, c.value) >= 0;
    case 'lt':
      return compare(c.field, actual, c.value) < 0;
    case 'lte':
      return compare(c.field, actual, c.value) <= 0;
    case 'in':
      return member(c.field, actual, c.value);
    case 'not_in':
      return !member(c.field, actual, c.value);
    case 'contains':
      return contains(c.field, actual, c.value);
    default:
      throw new ConditionError(`unknown operator ${String(c.op)}`);
  }
}

/** Groups evaluate every member (no short cut), so a failure anywhere is always reported. */
function evaluate(
  condition: unknown,
  input: ConditionInput,
  inputs: Record<string, unknown>,
): boolean {
  if (typeof condition !== 'object' || condition === null) {
    throw new ConditionError('malformed condition');
  }
  if ('all' in condition && Array.isArray(condition.all)) {
    return condition.all.map((c: unknown) => evaluate(c, input, inputs)).every(Boolean);
  }
  if ('any' in condition && Array.isArray(condition.any)) {
    return condition.any.map((c: unknown) => evaluate(c, input, inputs)).some(Boolean);
  }
  if ('field' in condition && typeof condition.field === 'string' && 'op' in condition) {
    const { field, op } = condition;
    const value = 'value' in condition ? condition.value : undefined;
    return compareOne({ field, op: String(op), value }, input, inputs);
  }
  throw new ConditionError('malformed condition');
}

export function evaluateCondition(condition: Condition, input: ConditionInput): ConditionOutcome {
  const inputs: Record<string, unknown> = {};
  try {
    return { ok: true, result: evaluate(condition, input, inputs), inputs };
  } catch (err) {
    if (err instanceof ConditionError)
      return { ok: false, error: err.message, field: err.field, inputs };
    throw err;
  }
}

/**
 * Branches are tried in order and the first match wins; a `default` branch is skipped while
 * trying and taken when no other matched. Evaluation stops at the first failure.
 */
export function chooseBranch(node: BranchNode, input: ConditionInput): BranchChoice {
  const evaluations: BranchEvaluation[] = [];
  for (const branch of node.branches) {
    if (branch.default) continue;
    if (!branch.condition) {
      const error = `branch ${branch.id} has no condition`;
      evaluations.push({ branch_id: branch.id, condition: null, inputs: {}, result: null });
      return { ok: false, error, field: null, evaluations };
    }
    const outcome = evaluateCondition(branch.condition, input);
    evaluations.push({
      branch_id: branch.id,
      condition: branch.condition,
      inputs: outcome.inputs,
      result: outcome.ok ? outcome.result : null,
    });
    if (!outcome.ok) {
      const error = `branch ${branch.id}: ${outcome.error}`;
      return { ok: false, error, field: outcome.field, evaluations };
    }
    if (outcome.result) return { ok: true, branch, evaluations };
  }
  const fallback = node.branches.find((b) => b.default);
  if (!fallback)
    return {
      ok: false,
      error: 'no branch matched and there is no default',
      field: null,
      evaluations,
    };
  evaluations.push({ branch_id: fallback.id, condition: null, inputs: {}, result: true });
  return { ok: true, branch: fallback, evaluations };
}
