import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { approval, createDefinition, flowHelpers } from './fixtures.js';

// A field hidden from an approver stays hidden in the route: the diagram's conditions on it and
// the timeline's name of the branch it chose are redacted for that viewer.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const FORM = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'input', required: true },
    { key: 'salary', label: 'Salary', type: 'number', required: true },
  ],
};

/** Every branch of the diagram's tree, depth first. */
function branchesOf(node: any): any[] {
  if (!node) return [];
  const own = node.type === 'branch' ? node.branches : [];
  return [...own, ...own.flatMap((b: any) => branchesOf(b.child)), ...branchesOf(node.child)];
}

function nodesOf(node: any): any[] {
  if (!node) return [];
  const inBranches =
    node.type === 'branch' ? node.branches.flatMap((b: any) => nodesOf(b.child)) : [];
  return [node, ...inBranches, ...nodesOf(node.child)];
}

describe('routing on a hidden field', () => {
  it('redacts the condition and the branch taken for a viewer who may not see the field', async () => {
    const { start, pendingTaskOf, act, users, get } = h();
    const [initiator, screener, director] = await users(3);
    const created = await createDefinition(platform, admin, {
      form_schema: FORM,
      node_tree: {
        id: 'start',
        type: 'start',
        name: 'Submit',
        child: {
          ...approval('screen', [screener.id], { hiddenFields: ['salary'] }),
          child: {
            id: 'pay',
            type: 'branch',
            name: 'Pay band',
            branches: [
              {
                id: 'high',
                name: 'Salary over 10000',
                condition: { field: 'salary', op: 'gt', value: 10_000 },
                child: approval('director', [director.id]),
              },
              { id: 'normal', name: 'Otherwise', default: true, child: null },
            ],
            child: null,
          },
        },
      },
    });
    const published = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin },
    );
    expect(published.status).toBe(200);
    const id = (await start(initiator, created.body.data.key, { reason: 'hire', salary: 20_000 }))
      .body.data.id;
    await act(screener, (await pendingTaskOf(screener, id)).id, 'approve', {});

    // The screener: no salary, no condition on it, no name of the branch it chose, no lists.
    const diagram = (await get(screener, `/api/v1/bpm/instances/${id}/diagram`)).body.data;
    expect(diagram.form).not.toHaveProperty('salary');
    expect(branchesOf(diagram.tree).find((b) => b.id === 'high')).toMatchObject({
      condition: null,
      redacted: true,
    });
    expect(nodesOf(diagram.tree).some((n) => 'hiddenFields' in n)).toBe(false);
    // Who is on the route is not secret: the path taken stays.
    expect(diagram.path).toContain('director');
    const branchEntry = (
      await get(screener, `/api/v1/bpm/instances/${id}/timeline`)
    ).body.data.find((e: any) => e.action === 'branch');
    expect(branchEntry).toMatchObject({ node_id: 'pay', comment: null });
    expect(JSON.stringify(diagram)).not.toContain('10000');

    // The initiator sees the whole form and the branch taken, but not the lists.
    const own = (await get(initiator, `/api/v1/bpm/instances/${id}/diagram`)).body.data;
    expect(branchesOf(own.tree).find((b) => b.id === 'high').condition).toEqual({
      field: 'salary',
      op: 'gt',
      value: 10_000,
    });
    expect(nodesOf(own.tree).some((n) => 'hiddenFields' in n)).toBe(false);
    const ownEntry = (await get(initiator, `/api/v1/bpm/instances/${id}/timeline`)).body.data.find(
      (e: any) => e.action === 'branch',
    );
    expect(ownEntry.comment).toBe('Salary over 10000');

    // A platform admin sees everything, the hidden-field lists included.
    const whole = (await get(admin, `/api/v1/bpm/instances/${id}/diagram`)).body.data;
    expect(nodesOf(whole.tree).find((n) => n.id === 'screen').hiddenFields).toEqual(['salary']);
  });
});
