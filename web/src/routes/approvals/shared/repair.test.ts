import { describe, expect, it } from 'vitest';
import type { FlowNode, FormField } from './repairTypes';
import { branchesAt, findNode, patchValue, resumeBodyOf } from './repair';

const tree = {
  id: 'start',
  type: 'start',
  name: 'Submit',
  child: {
    id: 'size',
    type: 'branch',
    name: 'By amount',
    branches: [
      {
        id: 'big',
        name: 'Large',
        child: { id: 'cfo', type: 'approval', name: 'CFO', child: null },
      },
      { id: 'small', name: 'Small', default: true, child: null },
    ],
    child: { id: 'hr', type: 'approval', name: 'HR', child: null },
  },
} as unknown as FlowNode;

const field = (key: string, type: FormField['type']): FormField => ({ key, label: key, type });

describe('findNode and branchesAt', () => {
  it('finds a node inside a branch and after the branch node', () => {
    expect(findNode(tree, 'cfo')?.name).toBe('CFO');
    expect(findNode(tree, 'hr')?.name).toBe('HR');
    expect(findNode(tree, 'nowhere')).toBeNull();
  });
  it('offers the branches of a branch node only', () => {
    expect(branchesAt(tree, 'size').map((b) => b.id)).toEqual(['big', 'small']);
    expect(branchesAt(tree, 'hr')).toEqual([]);
  });
});

describe('patchValue', () => {
  it('sends numbers, ids and switches as the API takes them, and clears an emptied field', () => {
    expect(patchValue(field('amount', 'amount'), '480.5')).toBe(480.5);
    expect(patchValue(field('dept', 'dept'), 7)).toBe(7);
    expect(patchValue(field('ok', 'switch'), true)).toBe(true);
    expect(patchValue(field('reason', 'input'), '')).toBeNull();
    expect(patchValue(field('reason', 'input'), 'Trip')).toBe('Trip');
    // Not a number: sent as typed, so the server's 40002 names the field.
    expect(patchValue(field('days', 'number'), 'two')).toBe('two');
  });
});

describe('resumeBodyOf', () => {
  it('sends only the repairs chosen', () => {
    const fields = [field('reason', 'input'), field('dept', 'dept')];
    expect(
      resumeBodyOf({ assigneeIds: [], branchId: undefined, edited: {}, fields, comment: ' ' }),
    ).toEqual({});
    expect(
      resumeBodyOf({
        assigneeIds: [3, 4],
        branchId: 'big',
        edited: { dept: 9, unknown: 'x' },
        fields,
        comment: ' fixed ',
      }),
    ).toEqual({
      comment: 'fixed',
      assignee_ids: [3, 4],
      branch_id: 'big',
      form_patch: { dept: 9 },
    });
  });
});
