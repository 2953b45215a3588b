import { describe, expect, it } from 'vitest';
import { chooseBranch, evaluateCondition, type ConditionInput } from './condition.js';
import { branch } from './directory.test-support.js';
import type { Condition, FormData } from './types.js';

const input = (
  form: FormData,
  dept: number | null = 4,
  roles: number[] = [3, 5],
): ConditionInput => ({
  form,
  initiator: { dept_id: dept, role_ids: roles },
});

const form: FormData = {
  amount: 1_500_000,
  title: 'Laptop for Ann',
  kind: 'hardware',
  urgent: true,
  day: '2024-03-10',
  note: '',
  nothing: null,
};

const result = (c: Condition, i: ConditionInput = input(form)) => {
  const outcome = evaluateCondition(c, i);
  if (!outcome.ok) throw new Error(`unexpected failure: ${outcome.error}`);
  return outcome.result;
};
const failure = (c: Condition, i: ConditionInput = input(form)) => {
  const outcome = evaluateCondition(c, i);
  if (outcome.ok) throw new Error('expected a failure');
  return outcome.error;
};

describe('evaluateCondition: operators', () => {
  it.each([
    [{ field: 'amount', op: 'gt', value: 1_000_000 }, true],
    [{ field: 'amount', op: 'gt', value: 1_500_000 }, false],
    [{ field: 'amount', op: 'gte', value: 1_500_000 }, true],
    [{ field: 'amount', op: 'lt', value: 1_500_000 }, false],
    [{ field: 'amount', op: 'lte', value: 1_500_000 }, true],
    [{ field: 'kind', op: 'eq', value: 'hardware' }, true],
    [{ field: 'kind', op: 'ne', value: 'hardware' }, false],
    [{ field: 'urgent', op: 'eq', value: true }, true],
    [{ field: 'day', op: 'gt', value: '2024-03-09' }, true],
    [{ field: 'day', op: 'lt', value: '2024-03-09' }, false],
    [{ field: 'kind', op: 'in', value: ['software', 'hardware'] }, true],
    [{ field: 'kind', op: 'not_in', value: ['software', 'hardware'] }, false],
    [{ field: 'title', op: 'contains', value: 'Laptop' }, true],
    [{ field: 'title', op: 'contains', value: 'Desk' }, false],
    [{ field: 'note', op: 'empty' }, true],
    [{ field: 'nothing', op: 'empty' }, true],
    [{ field: 'absent', op: 'empty' }, true],
    [{ field: 'title', op: 'not_empty' }, true],
    [{ field: 'initiator.dept_id', op: 'eq', value: 4 }, true],
    [{ field: 'initiator.role_ids', op: 'contains', value: 5 }, true],
    [{ field: 'initiator.role_ids', op: 'contains', value: 6 }, false],
    [{ field: 'initiator.role_ids', op: 'in', value: [1, 3] }, true],
    [{ field: 'initiator.role_ids', op: 'not_in', value: [1, 3] }, false],
  ] as [Condition, boolean][])('%j is %s', (c, expected) => {
    expect(result(c)).toBe(expected);
  });

  it('treats an initiator without roles as empty and in no list', () => {
    expect(result({ field: 'initiator.role_ids', op: 'empty' }, input(form, 4, []))).toBe(true);
    expect(result({ field: 'initiator.role_ids', op: 'in', value: [1] }, input(form, 4, []))).toBe(
      false,
    );
  });

  it('records each field value read, the initiator fields included', () => {
    const outcome = evaluateCondition(
      {
        all: [
          { field: 'amount', op: 'gt', value: 1 },
          { field: 'initiator.dept_id', op: 'eq', value: 4 },
        ],
      },
      input(form),
    );
    expect(outcome.inputs).toEqual({ amount: 1_500_000, 'initiator.dept_id': 4 });
  });
});

describe('evaluateCondition: failures are never a silent false', () => {
  it('fails on a missing field', () => {
    expect(failure({ field: 'absent', op: 'gt', value: 1 })).toMatch(/absent is missing/);
  });

  it('fails on a null field compared by an ordering operator', () => {
    expect(failure({ field: 'nothing', op: 'eq', value: 'x' })).toMatch(/missing/);
  });

  it('fails when the initiator has no department and the condition compares it', () => {
    expect(failure({ field: 'initiator.dept_id', op: 'eq', value: 4 }, input(form, null))).toMatch(
      /missing/,
    );
  });

  it('fails on a string ordered against a number', () => {
    expect(failure({ field: 'kind', op: 'gt', value: 5 })).toMatch(
      /cannot order string against number/,
    );
  });

  it('fails on eq between different types', () => {
    expect(failure({ field: 'amount', op: 'eq', value: '1500000' })).toMatch(
      /cannot compare number with string/,
    );
  });

  it('fails on in without a list', () => {
    expect(failure({ field: 'kind', op: 'in', value: 'hardware' })).toMatch(/needs a list/);
  });

  it('fails on in with a list of another type', () => {
    expect(failure({ field: 'amount', op: 'in', value: ['1'] })).toMatch(/no number values/);
  });

  it('fails on contains on a number', () => {
    expect(failure({ field: 'amount', op: 'contains', value: '1' })).toMatch(/cannot contain/);
  });

  it('fails on an unknown operator', () => {
    expect(failure({ field: 'amount', op: 'between', value: 1 } as unknown as Condition)).toMatch(
      /unknown operator between/,
    );
  });

  it('fails on a malformed condition', () => {
    expect(failure({ nope: 1 } as unknown as Condition)).toMatch(/malformed/);
  });
});

describe('evaluateCondition: groups', () => {
  const yes = { field: 'urgent', op: 'eq', value: true } as const;
  const no = { field: 'urgent', op: 'eq', value: false } as const;

  it('all needs every member, any needs one, and they nest', () => {
    expect(result({ all: [yes, no] })).toBe(false);
    expect(result({ any: [yes, no] })).toBe(true);
    expect(result({ all: [yes, { any: [no, yes] }] })).toBe(true);
  });

  it('reports a failing member even after a false one decided the group', () => {
    expect(failure({ all: [no, { field: 'absent', op: 'eq', value: 1 }] })).toMatch(/absent/);
    expect(failure({ any: [yes, { field: 'absent', op: 'eq', value: 1 }] })).toMatch(/absent/);
  });
});

describe('chooseBranch', () => {
  const big = { field: 'amount', op: 'gt', value: 1_000_000 } as const;
  const huge = { field: 'amount', op: 'gt', value: 1_200_000 } as const;

  it('takes the first matching branch and stops evaluating', () => {
    const node = branch('b', [
      { id: 'first', name: 'F', condition: big, child: null },
      { id: 'second', name: 'S', condition: huge, child: null },
    ]);
    const choice = chooseBranch(node, input(form));
    expect(choice.ok && choice.branch.id).toBe('first');
    expect(choice.evaluations).toEqual([
      { branch_id: 'first', condition: big, inputs: { amount: 1_500_000 }, result: true },
    ]);
  });

  it('takes the default branch when no other matches, without evaluating it, even when listed first', () => {
    const node = branch('b', [
      {
        id: 'other',
        name: 'O',
        default: true,
        condition: { field: 'absent', op: 'eq', value: 1 },
        child: null,
      },
      { id: 'small', name: 'S', condition: { field: 'amount', op: 'lt', value: 10 }, child: null },
    ]);
    const choice = chooseBranch(node, input(form));
    expect(choice.ok && choice.branch.id).toBe('other');
    expect(choice.evaluations.map((e) => [e.branch_id, e.result])).toEqual([
      ['small', false],
      ['other', true],
    ]);
  });

  it('fails when nothing matches and there is no default', () => {
    const node = branch('b', [
      { id: 'small', name: 'S', condition: { field: 'amount', op: 'lt', value: 10 }, child: null },
    ]);
    const choice = chooseBranch(node, input(form));
    expect(choice.ok).toBe(false);
    expect(!choice.ok && choice.error).toMatch(/no branch matched/);
  });

  it('fails at the first failing condition, even when a default exists', () => {
    const node = branch('b', [
      { id: 'bad', name: 'B', condition: { field: 'absent', op: 'gt', value: 1 }, child: null },
      { id: 'good', name: 'G', condition: big, child: null },
      { id: 'other', name: 'O', default: true, child: null },
    ]);
    const choice = chooseBranch(node, input(form));
    expect(!choice.ok && choice.error).toMatch(/branch bad: field absent is missing/);
    expect(choice.evaluations).toEqual([
      {
        branch_id: 'bad',
        condition: { field: 'absent', op: 'gt', value: 1 },
        inputs: { absent: null },
        result: null,
      },
    ]);
  });

  it('fails on a non-default branch without a condition', () => {
    const node = branch('b', [{ id: 'bare', name: 'B', child: null }]);
    expect(chooseBranch(node, input(form)).ok).toBe(false);
  });
});
