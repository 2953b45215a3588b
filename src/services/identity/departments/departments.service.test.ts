import { describe, expect, it } from 'vitest';
import type { DepartmentRow } from './departments.repo.js';
import { buildTree } from './departments.service.js';

const at = new Date('2024-01-02T03:04:05.678Z');
const row = (id: number, parentId: number | null): DepartmentRow => ({
  id,
  tenant_id: 1,
  name: `d${id}`,
  parent_id: parentId,
  leader_id: null,
  sort: 0,
  created_at: at,
  updated_at: at,
});

const shape = (nodes: ReturnType<typeof buildTree>): unknown =>
  nodes.map((n) => [n.id, shape(n.children)]);

describe('buildTree', () => {
  it('nests children under parents listed after them, keeping the given sibling order', () => {
    const tree = buildTree([row(3, 1), row(1, null), row(2, 1), row(4, 3), row(5, null)]);
    expect(shape(tree)).toEqual([
      [
        1,
        [
          [3, [[4, []]]],
          [2, []],
        ],
      ],
      [5, []],
    ]);
  });

  it('shows timestamps as ISO strings', () => {
    const [node] = buildTree([row(1, null)]);
    expect(node).toMatchObject({ created_at: '2024-01-02T03:04:05.678Z', children: [] });
  });

  it('puts a department whose parent is not in the set at the top level', () => {
    expect(shape(buildTree([row(7, 99)]))).toEqual([[7, []]]);
  });
});
