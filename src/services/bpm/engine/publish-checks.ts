import { collectNodes } from './hidden.js';
import type { FlowNode, FormSchema } from './types.js';

/**
 * What publishing checks beyond the tree's shape (validate-tree.ts): the people and roles the
 * rules name must exist, and a designer is warned about routes a request may not be able to
 * decide.
 */

/** The user and role ids the tree's rules name, each with the nodes naming it, in tree order. */
export function namedIds(tree: FlowNode): {
  users: Map<number, string[]>;
  roles: Map<number, string[]>;
} {
  const users = new Map<number, string[]>();
  const roles = new Map<number, string[]>();
  const add = (into: Map<number, string[]>, ids: unknown, nodeId: string) => {
    if (!Array.isArray(ids)) return;
    for (const id of ids) {
      if (typeof id !== 'number') continue;
      const nodes = into.get(id) ?? [];
      if (!nodes.includes(nodeId)) nodes.push(nodeId);
      into.set(id, nodes);
    }
  };
  for (const node of collectNodes(tree)) {
    if (node.type !== 'approval' && node.type !== 'cc') continue;
    const rule = node.assignee;
    if (rule.type === 'users') add(users, rule.userIds, node.id);
    if (rule.type === 'roles') add(roles, rule.roleIds, node.id);
    if (node.type === 'approval') add(users, node.emptyAssignee?.userIds, node.id);
  }
  return { users, roles };
}

export interface PublishWarning {
  field: string;
  message: string;
}

const GUARDS = new Set(['empty', 'not_empty']);

/** The fields a condition compares (not merely tests for emptiness), at any depth. */
function comparedFields(condition: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [condition];
  while (stack.length > 0) {
    const c = stack.pop();
    if (typeof c !== 'object' || c === null) continue;
    if ('field' in c && typeof c.field === 'string' && 'op' in c && !GUARDS.has(String(c.op))) {
      out.push(c.field);
    }
    if ('all' in c && Array.isArray(c.all)) stack.push(...(c.all as unknown[]));
    if ('any' in c && Array.isArray(c.any)) stack.push(...(c.any as unknown[]));
  }
  return out;
}

/** The field a branch condition routes away when it is empty: `{field, op: "empty"}`. */
function emptyGuardOf(condition: unknown): string | null {
  if (typeof condition !== 'object' || condition === null) return null;
  const c = condition as { field?: unknown; op?: unknown };
  return typeof c.field === 'string' && c.op === 'empty' ? c.field : null;
}

/**
 * Conditions comparing an optional form field that no earlier branch of the same node routes
 * away when empty (`{field, op: "empty"}`): a request leaving the field empty cannot decide the
 * route, so the pre-flight asks the submitter to fill it. A warning, not a refusal.
 */
export function publishWarnings(tree: FlowNode, schema: FormSchema): PublishWarning[] {
  const optional = new Set(schema.fields.filter((f) => !f.required).map((f) => f.key));
  const warnings: PublishWarning[] = [];
  for (const node of collectNodes(tree)) {
    if (node.type !== 'branch') continue;
    const guarded = new Set<string>();
    for (const branch of node.branches) {
      if (branch.default) continue;
      for (const field of new Set(comparedFields(branch.condition))) {
        if (!optional.has(field) || guarded.has(field)) continue;
        warnings.push({
          field: `node_tree.${node.id}`,
          message:
            `branch "${branch.id}" compares the optional field "${field}": a request leaving it ` +
            `empty cannot decide the route and is refused at submission; make the field required ` +
            `or route empty values first with an "empty" condition`,
        });
      }
      const guard = emptyGuardOf(branch.condition);
      if (guard) guarded.add(guard);
    }
  }
  return warnings;
}
