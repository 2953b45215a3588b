import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { approval, chain, flowHelpers } from './fixtures.js';

// The approvals admin page's list (GET /api/v1/bpm/instances): besides status, definition and
// initiator, a keyword over the title, business id and key, and a time range of the start.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const list = async (query: string) => {
  const res = await platform.call('GET', `/api/v1/bpm/instances?page_size=100&${query}`, {
    token: admin,
  });
  return res;
};
const ids = (res: { body: any }) => res.body.data.list.map((i: { id: number }) => i.id);

describe('the admin instance list', () => {
  it('finds instances by a keyword in the title, matched as literal text', async () => {
    const { publish, start, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('n', [approver.id])));
    const word = uniq('Laptop');
    const a = (await start(initiator, def.key, undefined, { title: `${word} 50%_off` })).body.data;
    const b = (await start(initiator, def.key, undefined, { title: `${word} plain` })).body.data;

    const both = await list(`keyword=${encodeURIComponent(word.toLowerCase())}`);
    expect(both.status).toBe(200);
    expect(ids(both).sort()).toEqual([a.id, b.id].sort());
    const literal = await list(
      `keyword=${encodeURIComponent('50%_off')}&initiator_id=${initiator.id}`,
    );
    expect(ids(literal)).toEqual([a.id]);
    const byKey = await list(`keyword=${encodeURIComponent(def.key)}`);
    expect(ids(byKey).sort()).toEqual([a.id, b.id].sort());
  });

  it('keeps the instances started within the time range', async () => {
    const { publish, start, users } = h();
    const [initiator, approver] = await users(2);
    const def = await publish(chain(approval('n', [approver.id])));
    const started = (await start(initiator, def.key)).body.data;
    const at = new Date(started.created_at).getTime();
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const q = `initiator_id=${initiator.id}`;

    expect(
      ids(await list(`${q}&start_time=${iso(at - 60_000)}&end_time=${iso(at + 60_000)}`)),
    ).toEqual([started.id]);
    expect(ids(await list(`${q}&start_time=${iso(at + 60_000)}`))).toEqual([]);
    expect(ids(await list(`${q}&end_time=${iso(at)}`))).toEqual([]);
  });

  it('refuses a time that is not ISO 8601 with the contract error', async () => {
    const res = await list('start_time=yesterday');
    expect([res.status, res.body.code]).toEqual([400, 40000]);
    expect(JSON.stringify(res.body.data)).toContain('start_time');
  });
});
