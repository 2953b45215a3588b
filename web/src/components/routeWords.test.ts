import { afterEach, describe, expect, it } from 'vitest';
import type { FlowNode, FormSchema, SimulateResult } from '../api/bpm';
import i18n from '../i18n';
import { branchDecisions } from './routeWords';

const schema: FormSchema = {
  fields: [
    { key: 'amount', label: 'Amount', type: 'amount' },
    { key: 'manager', label: 'Manager', type: 'user' },
  ],
} as FormSchema;

const tree = {
  id: 'start',
  name: 'Start',
  type: 'start',
  child: {
    id: 'b',
    name: 'By amount',
    type: 'branch',
    branches: [
      {
        id: 'big',
        name: 'Large expense',
        condition: { field: 'amount', op: 'gt', value: 100000 },
        child: null,
      },
      { id: 'other', name: 'Other', default: true, child: null },
    ],
    child: null,
  },
} as FlowNode;

const evaluations: SimulateResult['branches'] = [
  {
    node_id: 'b',
    branch_id: 'big',
    condition: { field: 'amount', op: 'gt', value: 100000 },
    inputs: { amount: 48000 },
    result: false,
  },
  { node_id: 'b', branch_id: 'other', condition: null, inputs: {}, result: null },
];

afterEach(() => i18n.changeLanguage('en'));

describe('the dry run in words', () => {
  it('says the comparison with formatted amounts and marks the default arm taken', async () => {
    await i18n.changeLanguage('en');
    expect(branchDecisions(i18n.t, tree, schema, evaluations)).toEqual([
      {
        nodeId: 'b',
        nodeName: 'By amount',
        taken: 'Otherwise',
        reasons: ['Amount ¥480.00 is not over ¥1,000.00'],
      },
    ]);
  });

  it('names the arm whose condition held, in Simplified Chinese too', async () => {
    await i18n.changeLanguage('zh-CN');
    const held = [{ ...evaluations[0]!, inputs: { amount: 250000 }, result: true }];
    const [decision] = branchDecisions(i18n.t, tree, schema, held);
    expect(decision).toMatchObject({
      taken: 'Large expense',
      reasons: ['Amount ¥2,500.00 超过 ¥1,000.00'],
    });
  });

  it('shows people by name in a comparison on a person field', async () => {
    await i18n.changeLanguage('en');
    const byPerson: SimulateResult['branches'] = [
      {
        node_id: 'b',
        branch_id: 'big',
        condition: { field: 'manager', op: 'eq', value: 3 },
        inputs: { manager: 4 },
        result: false,
      },
    ];
    const names = {
      user: (id: number) => ({ 3: 'Bob Li', 4: 'Carol' })[id],
      dept: () => undefined,
    };
    const [decision] = branchDecisions(i18n.t, tree, schema, byPerson, names);
    expect(decision!.reasons).toEqual(['Manager Carol is not Bob Li']);
  });
});
