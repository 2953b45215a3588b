import { describe, expect, it } from 'vitest';
import { approval, branch, cc, chain, start, users } from './directory.test-support.js';
import { namedIds, publishWarnings } from './publish-checks.js';
import type { FormSchema } from './types.js';

const schema: FormSchema = {
  fields: [
    { key: 'amount', label: 'Amount', type: 'number' },
    { key: 'days', label: 'Days', type: 'number', required: true },
  ],
};

describe('namedIds', () => {
  it('collects the users and roles of approval and cc rules and fallback lists, with their nodes', () => {
    const tree = chain(
      start(),
      approval('a', users(1, 2), {
        emptyAssignee: { strategy: 'fallback_users', userIds: [3, 1] },
      }),
      cc('c', { type: 'roles', roleIds: [7] }),
      approval('b', { type: 'roles', roleIds: [7, 8] }),
    );
    const { users: u, roles } = namedIds(tree);
    expect([...u]).toEqual([
      [1, ['a']],
      [2, ['a']],
      [3, ['a']],
    ]);
    expect([...roles]).toEqual([
      [7, ['c', 'b']],
      [8, ['b']],
    ]);
  });
});

describe('publishWarnings', () => {
  const byAmount = (first: object | null) =>
    chain(
      start(),
      branch('size', [
        ...(first ? [{ id: 'none', name: 'None', condition: first, child: null } as never] : []),
        {
          id: 'big',
          name: 'Big',
          condition: { field: 'amount', op: 'gt', value: 10 },
          child: null,
        },
        { id: 'long', name: 'Long', condition: { field: 'days', op: 'gt', value: 3 }, child: null },
        { id: 'other', name: 'Other', default: true, child: null },
      ]),
    );

  it('warns about a comparison of an optional field, naming the branch node', () => {
    const warnings = publishWarnings(byAmount(null), schema);
    expect(warnings.map((w) => w.field)).toEqual(['node_tree.size']);
    expect(warnings[0]!.message).toContain('"amount"');
  });

  it('stays quiet when an earlier branch routes the empty field away, or for required fields', () => {
    expect(publishWarnings(byAmount({ field: 'amount', op: 'empty' }), schema)).toEqual([]);
  });

  it('finds comparisons inside groups, but not emptiness tests', () => {
    const tree = chain(
      start(),
      branch('g', [
        {
          id: 'x',
          name: 'X',
          condition: {
            any: [
              { field: 'amount', op: 'not_empty' },
              { all: [{ field: 'amount', op: 'lt', value: 1 }] },
            ],
          },
          child: null,
        },
        { id: 'd', name: 'D', default: true, child: null },
      ]),
    );
    expect(publishWarnings(tree, schema)).toHaveLength(1);
    const onlyTests = chain(
      start(),
      branch('g', [
        { id: 'x', name: 'X', condition: { field: 'amount', op: 'not_empty' }, child: null },
        { id: 'd', name: 'D', default: true, child: null },
      ]),
    );
    expect(publishWarnings(onlyTests, schema)).toEqual([]);
  });
});
