import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers, type User } from './fixtures.js';

// Sorting of the four personal BPM lists happens in SQL, across pages, with `id` as tiebreaker.

let platform: TestPlatform;
let admin: string;
let initiator: User;
let approver: User;
let watcher: User;
/** Instance ids in creation order, their titles, and the order they were approved in. */
let instanceIds: number[];
let titles: Map<number, string>;
let approvedOrder: number[];
let taskIds: Map<number, number>;
let ccIds: Map<number, number>;

// Titles whose alphabetical order differs from the creation order (and from its reverse).
const LETTERS = ['d', 'b', 'e', 'a', 'c'];
// Approval order, as indexes into the created instances: neither creation order nor reverse.
const APPROVE = [2, 0, 4, 1, 3];

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
  const flow = flowHelpers(platform, () => admin);
  [initiator, approver, watcher] = await flow.users(3);
  const prefix = uniq('sort');
  const def = await flow.publish(
    chain(
      { id: 'copy', type: 'cc', name: 'Copy', assignee: { type: 'users', userIds: [watcher.id] } },
      approval('approve', [approver.id]),
    ),
  );
  instanceIds = [];
  titles = new Map();
  for (const letter of LETTERS) {
    const title = `${prefix}-${letter}`;
    const res = await flow.start(initiator, def.key, { reason: 'r', days: 1 }, { title });
    expect(res.status).toBe(200);
    instanceIds.push(res.body.data.id);
    titles.set(res.body.data.id, title);
  }
  const todo = await flow.get(approver, '/api/v1/bpm/tasks/todo?page_size=100');
  taskIds = new Map(todo.body.data.list.map((t: any) => [t.instance_id, t.id]));
  const cc = await flow.get(watcher, '/api/v1/bpm/cc/my?page_size=100');
  ccIds = new Map(cc.body.data.list.map((c: any) => [c.instance_id, c.id]));
  expect(taskIds.size).toBe(LETTERS.length);
  expect(ccIds.size).toBe(LETTERS.length);
  approvedOrder = APPROVE.map((i) => instanceIds[i]!);
});
afterAll(() => platform?.close());

/** Fetches the whole list in two pages of 3 and returns the instance ids in the order served. */
async function twoPages(user: User, path: string, params: string): Promise<number[]> {
  const sep = path.includes('?') ? '&' : '?';
  const pages = [];
  for (const page of [1, 2]) {
    const res = await platform.call('GET', `${path}${sep}${params}&page=${page}&page_size=3`, {
      token: user.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(LETTERS.length);
    pages.push(res.body.data.list as Array<{ id: number; instance_id?: number }>);
  }
  expect(pages.map((p) => p.length)).toEqual([3, 2]);
  // Returned as instance ids so one expectation serves every list.
  return pages.flat().map((row) => row.instance_id ?? row.id);
}

const byTitle = () => [...instanceIds].sort((a, b) => titles.get(a)!.localeCompare(titles.get(b)!));
const reversed = (ids: number[]) => [...ids].reverse();

async function expectRefused(user: User, path: string, query: string, field: string) {
  const res = await platform.call('GET', `${path}?${query}`, { token: user.token });
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(40000);
  expect(res.body.data.fields.map((f: any) => f.field)).toContain(field);
}

describe('GET /api/v1/bpm/tasks/todo sorting', () => {
  const path = '/api/v1/bpm/tasks/todo';
  it('sorts by created_at and title both ways across pages, newest first by default', async () => {
    expect(await twoPages(approver, path, '')).toEqual(reversed(instanceIds));
    expect(await twoPages(approver, path, 'order=asc')).toEqual(instanceIds);
    expect(await twoPages(approver, path, 'sort=created_at&order=asc')).toEqual(instanceIds);
    expect(await twoPages(approver, path, 'sort=created_at')).toEqual(reversed(instanceIds));
    expect(await twoPages(approver, path, 'sort=title&order=asc')).toEqual(byTitle());
    expect(await twoPages(approver, path, 'sort=title&order=desc')).toEqual(reversed(byTitle()));
  });
  it('refuses an unknown sort key or order', async () => {
    await expectRefused(approver, path, 'sort=finished_at', 'sort');
    await expectRefused(approver, path, 'sort=id;drop', 'sort');
    await expectRefused(approver, path, 'sort=title&order=up', 'order');
  });
});

describe('GET /api/v1/bpm/instances/my and /cc/my sorting', () => {
  it('sorts my requests by created_at and title, newest first by default', async () => {
    const path = '/api/v1/bpm/instances/my';
    expect(await twoPages(initiator, path, '')).toEqual(reversed(instanceIds));
    expect(await twoPages(initiator, path, 'order=asc')).toEqual(instanceIds);
    expect(await twoPages(initiator, path, 'sort=created_at&order=asc')).toEqual(instanceIds);
    expect(await twoPages(initiator, path, 'sort=title&order=asc')).toEqual(byTitle());
    expect(await twoPages(initiator, path, 'sort=title')).toEqual(reversed(byTitle()));
    await expectRefused(initiator, path, 'sort=initiator_id', 'sort');
    await expectRefused(initiator, path, 'order=ASC', 'order');
  });
  it('sorts the CC inbox by created_at and title, newest first by default', async () => {
    const path = '/api/v1/bpm/cc/my';
    expect(await twoPages(watcher, path, '')).toEqual(reversed(instanceIds));
    expect(await twoPages(watcher, path, 'order=asc')).toEqual(instanceIds);
    expect(await twoPages(watcher, path, 'sort=created_at')).toEqual(reversed(instanceIds));
    expect(await twoPages(watcher, path, 'sort=title&order=asc')).toEqual(byTitle());
    expect(await twoPages(watcher, path, 'sort=title&order=desc')).toEqual(reversed(byTitle()));
    await expectRefused(watcher, path, 'sort=updated_at', 'sort');
    await expectRefused(watcher, path, 'order=random', 'order');
  });
});

describe('after the approvals: done and updated_at', () => {
  beforeAll(async () => {
    for (const instanceId of approvedOrder) {
      const res = await platform.call(
        'POST',
        `/api/v1/bpm/tasks/${taskIds.get(instanceId)}/approve`,
        { token: approver.token, body: {} },
      );
      expect(res.status).toBe(200);
    }
  });

  it('sorts done by finished_at (the default, latest first), created_at and title', async () => {
    const path = '/api/v1/bpm/tasks/done';
    expect(await twoPages(approver, path, '')).toEqual(reversed(approvedOrder));
    expect(await twoPages(approver, path, 'order=asc')).toEqual(approvedOrder);
    expect(await twoPages(approver, path, 'sort=finished_at&order=asc')).toEqual(approvedOrder);
    expect(await twoPages(approver, path, 'sort=created_at&order=asc')).toEqual(instanceIds);
    expect(await twoPages(approver, path, 'sort=created_at')).toEqual(reversed(instanceIds));
    expect(await twoPages(approver, path, 'sort=title&order=asc')).toEqual(byTitle());
    await expectRefused(approver, path, 'sort=due_at', 'sort');
    await expectRefused(approver, path, 'sort=title&order=', 'order');
  });

  it('sorts my requests by updated_at (last change first by default direction)', async () => {
    const path = '/api/v1/bpm/instances/my';
    expect(await twoPages(initiator, path, 'sort=updated_at')).toEqual(reversed(approvedOrder));
    expect(await twoPages(initiator, path, 'sort=updated_at&order=asc')).toEqual(approvedOrder);
    // The default stays the newest request first, whatever changed last.
    expect(await twoPages(initiator, path, '')).toEqual(reversed(instanceIds));
  });
});
