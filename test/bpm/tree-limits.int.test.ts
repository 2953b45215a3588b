import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { LEAVE_FORM } from './fixtures.js';

// A node tree is client input: however deep or long, it is a clear 4xx, never a 500.

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

// Built as text: JSON.stringify itself recurses, and these trees are deeper than its stack.

/** A chain of `n` approval nodes after the start node, as JSON text. */
function chainOf(n: number): string {
  const node = (i: number) =>
    `{"id":"n${i}","type":"approval","name":"N","assignee":{"type":"users","userIds":[1]},"mode":"or","child":`;
  let text = '{"id":"start","type":"start","name":"Submit","child":';
  for (let i = 1; i <= n; i++) text += node(i);
  return text + 'null' + '}'.repeat(n + 1);
}

/** Branch nodes nested `depth` deep, each holding the next in its first branch, as JSON text. */
function nestedBranches(depth: number): string {
  let text = '{"id":"start","type":"start","name":"Submit","child":';
  for (let i = 1; i <= depth; i++) {
    text += `{"id":"b${i}","type":"branch","name":"B","branches":[{"id":"x${i}","name":"X","condition":{"field":"days","op":"gt","value":1},"child":`;
  }
  text += 'null';
  for (let i = depth; i >= 1; i--)
    text += `},{"id":"y${i}","name":"Y","default":true,"child":null}]}`;
  return text + '}';
}

const create = (nodeTree: string) =>
  platform.call('POST', '/api/v1/bpm/definitions', {
    token: admin,
    rawBody: `{"key":"${uniq('deep').toLowerCase().replace(/_/g, '-')}","name":"Deep","form_mode":"flow","form_schema":${JSON.stringify(LEAVE_FORM)},"node_tree":${nodeTree}}`,
  });

describe('node tree limits on create', () => {
  it.each([
    ['a 10 000-node chain', () => chainOf(10_000)],
    ['branches nested 10 000 deep', () => nestedBranches(10_000)],
    // Within the body limit: these reach the service (nested branches were a 500).
    ['a 3 000-node chain', () => chainOf(3_000)],
    ['branches nested 3 000 deep', () => nestedBranches(3_000)],
  ])('answers %s with 40001 or 41300, never a 500', async (_name, build) => {
    const res = await create(build());
    expect([400, 413]).toContain(res.status);
    expect(res.body.code).toBe(res.status === 400 ? 40001 : 41300);
    if (res.status === 400) expect(res.body.data.fields[0].message).toMatch(/nodes|deep/);
  });

  it('answers a chain over the node limit with 40001 naming the limit', async () => {
    const res = await create(chainOf(501));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({
        field: 'node_tree',
        rule: 'range',
        message: expect.stringContaining('500'),
      }),
    ]);
  });

  it('answers branches nested past the depth limit with 40001', async () => {
    const res = await create(nestedBranches(60));
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({
        field: 'node_tree',
        rule: 'range',
        message: expect.stringContaining('50'),
      }),
    ]);
  });

  it('applies the same limits to an update of a draft', async () => {
    const created = await create(chainOf(3));
    const res = await platform.call('PUT', `/api/v1/bpm/definitions/${created.body.data.id}`, {
      token: admin,
      rawBody: `{"node_tree":${nestedBranches(3_000)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
  });

  it('accepts a tree within the limits', async () => {
    expect((await create(chainOf(400))).status).toBe(200);
    expect((await create(nestedBranches(20))).status).toBe(200);
  });
});
