/**
 * What the stuck queue needs to repair a suspended request in place: the stopped step found in
 * the frozen tree (its name for the reason in words, its branches for "pick a branch"), and the
 * resume body built from what the administrator changed, so nothing they left alone is sent.
 */
import type { Branch, FlowNode, FormField, ResumeFormValue } from './repairTypes';

/** The node with this id anywhere in the tree (children and every branch), or null. */
export function findNode(tree: FlowNode | null | undefined, nodeId: string): FlowNode | null {
  if (!tree) return null;
  if (tree.id === nodeId) return tree;
  if (tree.type === 'branch') {
    for (const branch of tree.branches) {
      const found = findNode(branch.child, nodeId);
      if (found) return found;
    }
  }
  return findNode(tree.child ?? null, nodeId);
}

/** The branches a repair may enter at this node: none unless it is a branch node. */
export function branchesAt(tree: FlowNode | null | undefined, nodeId: string): Branch[] {
  const node = findNode(tree, nodeId);
  return node?.type === 'branch' ? node.branches : [];
}

/**
 * A form field's value as the API takes it on start from what an input holds: amounts in yuan
 * and numbers as numbers, a person or department as its id, a switch as a boolean, an emptied
 * field as null (which clears it).
 */
export function patchValue(field: FormField, raw: unknown): ResumeFormValue {
  if (raw === undefined || raw === null || raw === '') return null;
  switch (field.type) {
    case 'number':
    case 'amount':
    case 'user':
    case 'dept': {
      const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
      return Number.isFinite(value) ? value : String(raw);
    }
    case 'switch':
      return raw === true || raw === 'true';
    default:
      return typeof raw === 'string' ? raw : String(raw);
  }
}

export interface RepairChoice {
  assigneeIds: number[];
  branchId: string | undefined;
  /** The fields the administrator edited, key to what the input holds. */
  edited: Record<string, unknown>;
  fields: readonly FormField[];
  comment: string;
}

/** The resume body: only the repairs chosen (an empty body re-evaluates the request as it is). */
export function resumeBodyOf(choice: RepairChoice) {
  const body: {
    comment?: string;
    assignee_ids?: number[];
    branch_id?: string;
    form_patch?: Record<string, ResumeFormValue>;
  } = {};
  if (choice.comment.trim()) body.comment = choice.comment.trim();
  if (choice.assigneeIds.length > 0) body.assignee_ids = choice.assigneeIds;
  if (choice.branchId) body.branch_id = choice.branchId;
  const patch: Record<string, ResumeFormValue> = {};
  for (const field of choice.fields) {
    if (field.key in choice.edited) patch[field.key] = patchValue(field, choice.edited[field.key]);
  }
  if (Object.keys(patch).length > 0) body.form_patch = patch;
  return body;
}
