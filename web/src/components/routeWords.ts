import type { TFunction } from 'i18next';
import type { Condition, ConditionOp, FlowNode, FormSchema, SimulateResult } from '../api/bpm';
import { walkTree } from '../diagram/tree';
import {
  conditionText,
  valueText,
  type ConditionNames,
  type ConditionWords,
} from '../routes/designer/editor/conditions';

/** Operators and groups in the reader's language (`designer.op.*`). */
export function conditionWords(t: TFunction): ConditionWords {
  return {
    op: (op) => t(`designer.op.${op}`),
    and: t('preview.and'),
    or: t('preview.or'),
  };
}

/** One branch node's decision: the arm taken and each condition as it was evaluated. */
export interface BranchDecision {
  nodeId: string;
  nodeName: string;
  taken: string | null;
  reasons: string[];
}

/**
 * The dry run's branch evaluations in words, one decision per branch node: "Amount ¥480.00 is
 * not over ¥1,000.00", then the arm taken ("Otherwise" for a default arm).
 */
export function branchDecisions(
  t: TFunction,
  tree: FlowNode,
  schema: FormSchema,
  branches: SimulateResult['branches'],
  names?: ConditionNames,
): BranchDecision[] {
  const arms = new Map<string, { name: string; isDefault: boolean }>();
  const nodes = new Map<string, string>();
  walkTree(tree, (n) => {
    nodes.set(n.id, n.name);
    if (n.type === 'branch')
      for (const b of n.branches)
        arms.set(`${n.id}/${b.id}`, { name: b.name, isDefault: !!b.default });
  });
  const out = new Map<string, BranchDecision>();
  for (const e of branches) {
    const decision = out.get(e.node_id) ?? {
      nodeId: e.node_id,
      nodeName: nodes.get(e.node_id) ?? e.node_id,
      taken: null,
      reasons: [],
    };
    out.set(e.node_id, decision);
    const arm = e.branch_id ? arms.get(`${e.node_id}/${e.branch_id}`) : undefined;
    const condition = e.condition as Condition | null;
    if (!condition) {
      // A default arm, taken because nothing else held.
      if (decision.taken === null)
        decision.taken = arm?.isDefault ? t('designer.otherwise') : (arm?.name ?? null);
      continue;
    }
    decision.reasons.push(
      evaluationText(
        t,
        condition,
        schema,
        (e.inputs ?? {}) as Record<string, unknown>,
        e.result,
        names,
      ),
    );
    if (e.result === true && decision.taken === null)
      decision.taken = arm?.name ?? e.branch_id ?? null;
  }
  return [...out.values()];
}

/**
 * One evaluated condition: a comparison as "<field> <value> is / is not <op> <value>", a group as
 * the condition in words and whether it held.
 */
export function evaluationText(
  t: TFunction,
  condition: Condition,
  schema: FormSchema,
  inputs: Record<string, unknown>,
  result: unknown,
  names?: ConditionNames,
): string {
  if (result !== true && result !== false)
    return t('preview.couldNotDecide', {
      condition: conditionText(condition, schema, names, conditionWords(t)),
    });
  if ('field' in condition) {
    const field = schema.fields.find((f) => f.key === condition.field);
    const label = field?.label ?? condition.field;
    const actual = inputValue(inputs, condition.field);
    const phrase = t(`preview.${result ? 'holds' : 'fails'}.${condition.op satisfies ConditionOp}`);
    const expected =
      condition.value === undefined ? '' : ` ${valueText(condition.value, field?.type, names)}`;
    const shown = actual === undefined ? '' : ` ${valueText(actual, field?.type, names)}`;
    return `${label}${shown} ${phrase}${expected}`;
  }
  const text = conditionText(condition, schema, names, conditionWords(t));
  return t(result ? 'preview.groupHolds' : 'preview.groupFails', { condition: text });
}

/** The value the server compared: by the field's key, or nested under `form`. */
function inputValue(inputs: Record<string, unknown>, field: string): unknown {
  if (field in inputs) return inputs[field];
  const form = inputs.form as Record<string, unknown> | undefined;
  return form && typeof form === 'object' ? form[field] : undefined;
}
