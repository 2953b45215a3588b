/**
 * Publish-time validation of a whole node tree (BPM.md "Publishing validates the whole tree"):
 * every problem at once, each naming the node at fault as `field: "node_tree.<id>"` (plain
 * `node_tree` when the node has no usable id) with the id in the message too. A problem of one
 * branch of a branch node (its id, name, condition) names the branch's id, since ids are unique
 * across nodes and branches alike; problems of the branch node as a whole (too few branches,
 * two defaults) name the branch node.
 *
 * Decisions where BPM.md is silent:
 * - Reachability: a tree has no links other than `child` and `branches`, so every node, and so
 *   every `initiator_selected` node, is reachable from the root by construction, and nothing
 *   follows a branch node except through its `child`, which every chosen branch continues to.
 *   Only condition values could hide a node, and conditions are not evaluated here.
 * - Nesting is capped at MAX_TREE_DEPTH nodes on any path from the root (child links and
 *   branch entries both count) and conditions at MAX_CONDITION_DEPTH levels, so every
 *   recursive walker of a published tree is safe; deeper input is a `range` problem.
 * - An `amount` condition compares integer cents (`1000000` is 10 000 yuan), as the stored form.
 * - `initiator.dept_id` compares a positive integer. `initiator.role_ids` is a list: it takes
 *   `contains` (one role id), `in`/`not_in` (holds any / none of the ids) and `empty`/`not_empty`;
 *   `eq`/`ne` are refused there because condition.ts compares scalars only and would always
 *   fail, suspending every instance.
 * - A `dept_leader` rule with `source: form_field` must name a `dept` field (or a `number`
 *   field, as definitions did before `dept` existed); a `form_user` rule names a `user` field.
 * - A default branch must not carry a condition (it would never be read); `empty`/`not_empty`
 *   accept `value` absent or null; `in`/`not_in` need a non-empty array; `contains` on text
 *   needs a non-empty string; `eq` on select/radio must name one of the options.
 * - Deadlines are checked in validate-timeout.ts.
 * - Unknown extra keys are ignored everywhere.
 */
import type { FieldProblem } from '../../../platform/errors.js';
import { isPlainObject } from './form.js';
import type { FormField, FormSchema } from './types.js';
import { MAX_TREE_NODES } from './tree-size.js';
import { checkCondition } from './validate-condition.js';
import { nodeTimeoutProblems, resubmitTimeoutProblems } from './validate-timeout.js';

export { CONDITION_OPS, MAX_CONDITION_DEPTH } from './validate-condition.js';

export const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A path from the root cannot be longer than the tree has nodes (tree-size.ts). */
export const MAX_TREE_DEPTH = MAX_TREE_NODES;
export { MAX_TIMEOUT_HOURS } from './validate-timeout.js';

type Rule = FieldProblem['rule'];

const REPEATS = ['off', 'consecutive', 'any'];
const LEADER = ['next_level', 'skip', 'allow'];

/** Where a problem is reported: the `field` of the entry and the subject of its message. */
interface Fault {
  field: string;
  subject: string;
}

interface Walk {
  problems: FieldProblem[];
  ids: Set<string>;
  fields: Map<string, FormField>;
}

function report(walk: Walk, at: Fault, rule: Rule, message: string): void {
  walk.problems.push({ field: at.field, rule, message: `${at.subject}: ${message}` });
}

function faultOf(kind: 'node' | 'branch', id: unknown, location: string): Fault {
  return typeof id === 'string' && id !== ''
    ? { field: `node_tree.${id}`, subject: `${kind} "${id}"` }
    : { field: 'node_tree', subject: `${kind} at ${location}` };
}

const isPositiveId = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) > 0;

/** Why `value` is not a non-empty array of positive integer ids, or null when it is. */
function idListProblem(value: unknown, name: string): [Rule, string] | null {
  if (value === undefined) return ['required', `${name} is required`];
  if (!Array.isArray(value)) return ['type', `${name} must be an array of ids`];
  if (value.length === 0) return ['required', `${name} must not be empty`];
  if (!value.every(isPositiveId)) return ['type', `${name} must hold positive integer ids`];
  return null;
}

/** A rule's `field`: declared, and of one of `types`. */
function fieldRefProblem(
  walk: Walk,
  field: unknown,
  types: string[],
  what: string,
): [Rule, string] | null {
  if (field === undefined || field === '') return ['required', 'assignee.field is required'];
  if (typeof field !== 'string' || !walk.fields.has(field))
    return ['option', 'assignee.field must name a declared form field'];
  if (!types.includes(walk.fields.get(field)!.type))
    return ['type', `assignee.field "${field}" must be ${what} field`];
  return null;
}

function checkOneOf(walk: Walk, at: Fault, name: string, value: unknown, allowed: string[]): void {
  if (value === undefined) report(walk, at, 'required', `${name} is required`);
  else if (typeof value !== 'string' || !allowed.includes(value)) {
    report(walk, at, 'option', `${name} must be one of ${allowed.join(', ')}`);
  }
}

/**
 * Validates a definition's node tree against its (already validated) form schema; `[]` when
 * it can be published.
 */
export function validateTree(tree: unknown, schema: FormSchema): FieldProblem[] {
  const walk: Walk = {
    problems: [],
    ids: new Set(),
    fields: new Map(schema.fields.map((f) => [f.key, f])),
  };
  if (!isPlainObject(tree)) {
    return [{ field: 'node_tree', rule: 'type', message: 'node_tree must be a node object' }];
  }
  if (tree.type !== 'start') {
    report(
      walk,
      faultOf('node', tree.id, 'the root'),
      'format',
      'the first node must be a start node',
    );
  }
  walkChain(walk, tree, 1, 'node_tree');
  return walk.problems;
}

/** Walks a chain along `child` iteratively; recursion happens only into branches. */
function walkChain(walk: Walk, first: unknown, depth: number, location: string): void {
  let raw = first;
  let where = location;
  for (let d = depth; raw !== undefined && raw !== null; d++) {
    if (!isPlainObject(raw)) {
      report(
        walk,
        { field: 'node_tree', subject: `node at ${where}` },
        'type',
        'a node must be an object',
      );
      return;
    }
    const at = faultOf('node', raw.id, where);
    if (d > MAX_TREE_DEPTH) {
      report(walk, at, 'range', `the tree is nested deeper than ${MAX_TREE_DEPTH} nodes`);
      return;
    }
    checkNode(walk, raw, at, d, where);
    raw = raw.child;
    where = `${where}.child`;
  }
}

function checkId(walk: Walk, at: Fault, id: unknown): void {
  if (id === undefined || id === '') report(walk, at, 'required', 'id is required');
  else if (typeof id !== 'string') report(walk, at, 'type', 'id must be a string');
  else if (!NODE_ID_PATTERN.test(id)) {
    report(walk, at, 'format', 'id must be 1 to 64 letters, digits, _ or -');
  } else if (walk.ids.has(id)) report(walk, at, 'format', `id "${id}" is used more than once`);
  else walk.ids.add(id);
}

function checkName(walk: Walk, at: Fault, name: unknown): void {
  if (name === undefined || name === '') report(walk, at, 'required', 'name is required');
  else if (typeof name !== 'string') report(walk, at, 'type', 'name must be a string');
}

function checkNode(
  walk: Walk,
  node: Record<string, unknown>,
  at: Fault,
  depth: number,
  where: string,
): void {
  checkId(walk, at, node.id);
  checkName(walk, at, node.name);
  checkHiddenFields(walk, at, node.hiddenFields);
  switch (node.type) {
    case 'start':
      if (depth > 1) {
        report(walk, at, 'format', 'a start node may only be the first node of the tree');
      }
      checkOneOf(walk, at, 'autoApproveRepeats', node.autoApproveRepeats ?? 'off', REPEATS);
      if (node.resubmitTimeout !== undefined)
        for (const [rule, message] of resubmitTimeoutProblems(node.resubmitTimeout))
          report(walk, at, rule, message);
      // The initiator fills the whole form: a start node hiding fields would have no effect.
      if (Array.isArray(node.hiddenFields) && node.hiddenFields.length > 0) {
        report(
          walk,
          at,
          'option',
          'a start node cannot hide fields (the initiator fills the form)',
        );
      }
      return;
    case 'approval':
      checkApproval(walk, at, node);
      return;
    case 'cc':
      checkAssignee(walk, at, node.assignee, false);
      return;
    case 'branch':
      checkBranches(walk, at, node.branches, depth, where);
      return;
    case undefined:
      report(walk, at, 'required', 'type is required');
      return;
    default:
      report(walk, at, 'option', 'type must be one of start, approval, cc, branch');
  }
}

function checkHiddenFields(walk: Walk, at: Fault, hidden: unknown): void {
  if (hidden === undefined) return;
  if (!Array.isArray(hidden)) {
    report(walk, at, 'type', 'hiddenFields must be an array of form field keys');
    return;
  }
  for (const key of hidden) {
    if (typeof key !== 'string') report(walk, at, 'type', 'hiddenFields must hold strings');
    else if (!walk.fields.has(key)) {
      report(walk, at, 'option', `hiddenFields names "${key}", which the form does not declare`);
    }
  }
}

/** Declared keys only, and none the node hides from its own actors (they could not see it). */
function checkEditableFields(walk: Walk, at: Fault, editable: unknown, hidden: unknown): void {
  if (editable === undefined) return;
  if (!Array.isArray(editable)) {
    report(walk, at, 'type', 'editableFields must be an array of form field keys');
    return;
  }
  const hiddenKeys = new Set(Array.isArray(hidden) ? hidden : []);
  for (const key of editable) {
    if (typeof key !== 'string') report(walk, at, 'type', 'editableFields must hold strings');
    else if (!walk.fields.has(key)) {
      report(walk, at, 'option', `editableFields names "${key}", which the form does not declare`);
    } else if (hiddenKeys.has(key)) {
      report(walk, at, 'option', `editableFields names "${key}", which this node hides`);
    }
  }
}

function checkApproval(walk: Walk, at: Fault, node: Record<string, unknown>): void {
  checkAssignee(walk, at, node.assignee, true);
  checkOneOf(walk, at, 'mode', node.mode, ['and', 'or', 'sequential', 'vote']);
  if (node.mode === 'vote') {
    const ratio = node.passRatio;
    if (ratio === undefined) report(walk, at, 'required', 'passRatio is required in vote mode');
    else if (typeof ratio !== 'number' || !Number.isFinite(ratio)) {
      report(walk, at, 'type', 'passRatio must be a number');
    } else if (ratio <= 0 || ratio > 1) {
      report(walk, at, 'range', 'passRatio must be above 0 and at most 1');
    }
  }
  if (node.allowBackPrev !== undefined && typeof node.allowBackPrev !== 'boolean') {
    report(walk, at, 'type', 'allowBackPrev must be true or false');
  }
  if (node.onReject !== undefined) {
    checkOneOf(walk, at, 'onReject', node.onReject, ['terminate', 'initiator']);
  }
  if (node.allowInitiator !== undefined && typeof node.allowInitiator !== 'boolean') {
    report(walk, at, 'type', 'allowInitiator must be true or false');
  }
  checkEditableFields(walk, at, node.editableFields, node.hiddenFields);
  const { timeout, emptyAssignee } = node;
  if (timeout !== undefined)
    for (const [rule, message] of nodeTimeoutProblems(timeout)) report(walk, at, rule, message);
  if (emptyAssignee !== undefined) {
    if (!isPlainObject(emptyAssignee)) {
      report(walk, at, 'type', 'emptyAssignee must be {strategy, userIds?}');
    } else {
      const { strategy } = emptyAssignee;
      checkOneOf(walk, at, 'emptyAssignee.strategy', strategy, [
        'auto_pass',
        'fallback_users',
        'suspend',
      ]);
      if (strategy === 'fallback_users') {
        const bad = idListProblem(emptyAssignee.userIds, 'emptyAssignee.userIds');
        if (bad) report(walk, at, bad[0], bad[1]);
      }
    }
  }
}

function checkAssignee(walk: Walk, at: Fault, rule: unknown, allowSelected: boolean): void {
  if (rule === undefined || rule === null) {
    report(walk, at, 'required', 'assignee is required');
    return;
  }
  if (!isPlainObject(rule)) {
    report(walk, at, 'type', 'assignee must be an assignee rule object');
    return;
  }
  let bad: [Rule, string] | null = null;
  switch (rule.type) {
    case 'users':
      bad = idListProblem(rule.userIds, 'assignee.userIds');
      break;
    case 'roles':
      bad = idListProblem(rule.roleIds, 'assignee.roleIds');
      break;
    case 'dept_leader':
      checkOneOf(walk, at, 'assignee.source', rule.source, ['initiator', 'form_field']);
      if (rule.source === 'form_field') {
        const problem = fieldRefProblem(walk, rule.field, ['dept', 'number'], 'a department');
        if (problem) report(walk, at, problem[0], problem[1]);
      }
      if (rule.level !== undefined) {
        if (!Number.isSafeInteger(rule.level)) bad = ['type', 'assignee.level must be an integer'];
        else if ((rule.level as number) < 1) bad = ['range', 'assignee.level must be at least 1'];
      }
      checkOneOf(walk, at, 'assignee.initiatorIsLeader', rule.initiatorIsLeader ?? 'allow', LEADER);
      break;
    case 'form_user':
      bad = fieldRefProblem(walk, rule.field, ['user'], 'a person');
      break;
    case 'initiator_selected':
      if (!allowSelected) bad = ['option', 'a cc node cannot use an initiator_selected assignee'];
      break;
    case undefined:
      bad = ['required', 'assignee.type is required'];
      break;
    default:
      bad = [
        'option',
        'assignee.type must be one of users, roles, dept_leader, initiator_selected, form_user',
      ];
  }
  if (bad) report(walk, at, bad[0], bad[1]);
}

function checkBranches(
  walk: Walk,
  at: Fault,
  branches: unknown,
  depth: number,
  where: string,
): void {
  if (branches === undefined) {
    report(walk, at, 'required', 'a branch node needs branches');
    return;
  }
  if (!Array.isArray(branches)) {
    report(walk, at, 'type', 'branches must be an array');
    return;
  }
  if (branches.length < 2) report(walk, at, 'range', 'a branch node needs at least two branches');
  let defaults = 0;
  branches.forEach((branch: unknown, i) => {
    const location = `${where}.branches[${i}]`;
    if (!isPlainObject(branch)) {
      report(walk, at, 'type', `branches[${i}] must be an object`);
      return;
    }
    const bat = faultOf('branch', branch.id, location);
    checkId(walk, bat, branch.id);
    checkName(walk, bat, branch.name);
    if (branch.default !== undefined && typeof branch.default !== 'boolean') {
      report(walk, bat, 'type', 'default must be true or false');
    }
    if (branch.default === true) {
      defaults++;
      if (defaults === 2) {
        const which = typeof branch.id === 'string' ? `"${branch.id}"` : `branches[${i}]`;
        report(
          walk,
          at,
          'format',
          `has a second default branch (${which}); at most one is allowed`,
        );
      }
      if (branch.condition !== undefined && branch.condition !== null) {
        report(walk, bat, 'format', 'a default branch takes no condition');
      }
    } else if (branch.condition === undefined || branch.condition === null) {
      report(walk, bat, 'required', 'a branch that is not the default needs a condition');
    } else {
      checkCondition(
        walk.fields,
        (rule, message) => report(walk, bat, rule, message),
        branch.condition,
        'condition',
        1,
      );
    }
    walkChain(walk, branch.child, depth + 1, `${location}.child`);
  });
}
