import { describe, expect, it } from 'vitest';
import type { FlowNode, NodeState } from '../api/bpm';
import { treeToGraph } from './tree';

/** start → branch (big: director, small: empty) → end, with the states the server gave. */
function tree(branch: NodeState | undefined, director: NodeState | undefined): FlowNode {
  return {
    id: 'start',
    name: 'Start',
    type: 'start',
    state: 'done',
    child: {
      id: 'b',
      name: 'By amount',
      type: 'branch',
      state: branch,
      branches: [
        {
          id: 'big',
          name: 'Over 1000',
          condition: { field: 'amount', op: 'gt', value: 100000 },
          child: {
            id: 'director',
            name: 'Director',
            type: 'approval',
            state: director,
            assignee: { type: 'users', userIds: [3] },
            mode: 'or',
            child: null,
          } as FlowNode,
        },
        { id: 'small', name: 'Otherwise', default: true, child: null },
      ],
      child: null,
    },
  } as FlowNode;
}

const armStates = (t: FlowNode) =>
  Object.fromEntries(
    treeToGraph(t)
      .nodes.filter((n) => n.kind === 'branch-arm')
      .map((n) => [n.id, n.state]),
  );

describe('the branch arm taken', () => {
  it('is the arm whose first step was entered; the others were not taken', () => {
    expect(armStates(tree('done', 'active'))).toEqual({ 'b/big': 'done', 'b/small': 'skipped' });
  });

  it('is the empty arm when the branch was left and no other arm entered', () => {
    expect(armStates(tree('done', 'skipped'))).toEqual({ 'b/big': 'skipped', 'b/small': 'done' });
  });

  it('is not decided while the branch is not reached', () => {
    expect(armStates(tree('pending', 'pending'))).toEqual({
      'b/big': undefined,
      'b/small': undefined,
    });
  });
});
