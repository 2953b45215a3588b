import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, singleApproval } from './fixtures.js';

const TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ BPM_INTERNAL_TOKEN: TOKEN });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());
const db = () => platform.kernel.database.db;

async function businessDefinition() {
  const bizType = uniq('contract').toLowerCase();
  const created = await createDefinition(platform, admin, {
    form_mode: 'business',
    biz_type: bizType,
    node_tree: singleApproval([1]),
  });
  await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
    token: admin,
  });
  return { key: created.body.data.key as string, bizType };
}

function internalStart(body: Record<string, unknown>, token = TOKEN) {
  return platform.call('POST', '/api/v1/bpm/internal/instances', {
    body,
    headers: { 'x-internal-token': token },
  });
}

describe('internal endpoints', () => {
  it('start a business instance on the definition\u2019s anchor type and find it by anchor', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await businessDefinition();
    const res = await internalStart({
      tenant_id: 1,
      initiator_id: initiator.id,
      definition_key: def.key,
      biz_id: 'C-1001',
      form: { reason: 'contract', days: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      biz_type: def.bizType,
      biz_id: 'C-1001',
      status: 'running',
      initiator_id: initiator.id,
    });
    const found = await platform.call(
      'GET',
      `/api/v1/bpm/internal/instances/by-biz?biz_type=${def.bizType}&biz_id=C-1001`,
      {
        headers: { 'x-internal-token': TOKEN },
      },
    );
    expect(found.body.data.id).toBe(res.body.data.id);
  });

  it('refuses a second running instance of one anchor with 40901', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await businessDefinition();
    const body = {
      tenant_id: 1,
      initiator_id: initiator.id,
      definition_key: def.key,
      biz_id: 'C-2',
      form: { reason: 'r', days: 1 },
    };
    expect((await internalStart(body)).status).toBe(200);
    const dup = await internalStart(body);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(40901);
  });

  /** How many instances of the anchor the database holds: `live` ones (running, suspended). */
  async function countAnchor(bizType: string, bizId: string, live = false) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bpm_instances
      WHERE tenant_id = 1 AND biz_type = ${bizType} AND biz_id = ${bizId}
        AND (${!live} OR status IN ('running', 'suspended'))`.execute(db());
    return rows[0]!.n;
  }

  raceIt('gives one instance and 19 × 40901 for 20 concurrent starts of one anchor', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await businessDefinition();
    const body = {
      tenant_id: 1,
      initiator_id: initiator.id,
      definition_key: def.key,
      biz_id: uniq('race'),
      form: { reason: 'r', days: 1 },
    };
    const results = await raceOnRowLock(
      platform.settings.database.url,
      'LOCK TABLE bpm_instances IN SHARE ROW EXCLUSIVE MODE',
      [],
      () => Promise.all(Array.from({ length: 20 }, () => internalStart(body))),
      5,
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    for (const loser of results.filter((r) => r.status === 409)) {
      expect(loser.body).toEqual({ code: 40901, message: expect.any(String), data: null });
    }
    expect(await countAnchor(def.bizType, body.biz_id)).toBe(1);
  });

  it('is decided by the partial unique index: a second live row is refused, a finished one is not', async () => {
    const initiator = await createUserWith(platform, []);
    const def = await businessDefinition();
    const bizId = uniq('index');
    const started = await internalStart({
      tenant_id: 1,
      initiator_id: initiator.id,
      definition_key: def.key,
      biz_id: bizId,
      form: { reason: 'r', days: 1 },
    });
    expect(started.status).toBe(200);
    // A copy of the live row written straight to the table, past every check of the service.
    const copy = (status: string) =>
      sql`
      INSERT INTO bpm_instances (tenant_id, definition_id, definition_key, definition_version,
        title, status, initiator_id, biz_type, biz_id, form)
      SELECT tenant_id, definition_id, definition_key, definition_version, title, ${status},
        initiator_id, biz_type, biz_id, form
      FROM bpm_instances WHERE id = ${started.body.data.id}`.execute(db());
    for (const status of ['running', 'suspended']) {
      const refused = await copy(status).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: '23505' });
      expect(String((refused as { constraint?: string }).constraint ?? refused)).toContain(
        'bpm_instances_live_anchor',
      );
    }
    // The index is partial: finished instances of the anchor may be many.
    await copy('approved');
    await copy('canceled');
    expect(await countAnchor(def.bizType, bizId)).toBe(3);
    expect(await countAnchor(def.bizType, bizId, true)).toBe(1);
  });

  it('answers 40104 for a wrong token and needs no bearer', async () => {
    const res = await internalStart(
      { tenant_id: 1, initiator_id: 1, definition_key: 'x', biz_id: 'y' },
      'wrong-token',
    );
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40104);
    const missing = await platform.call(
      'GET',
      '/api/v1/bpm/internal/instances/by-biz?biz_type=a&biz_id=b',
    );
    expect(missing.body.code).toBe(40104);
  });

  it('refuses flow-form definitions', async () => {
    const created = await createDefinition(platform, admin, { node_tree: singleApproval([1]) });
    await platform.call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`, {
      token: admin,
    });
    const res = await internalStart({
      tenant_id: 1,
      initiator_id: 1,
      definition_key: created.body.data.key,
      biz_id: 'z',
      form: { reason: 'r', days: 1 },
    });
    expect(res.status).toBe(409);
  });
});

describe('internal endpoints without BPM_INTERNAL_TOKEN', () => {
  it('answer 503 whatever is sent', async () => {
    const closed = await startTestPlatform({ BPM_INTERNAL_TOKEN: '' });
    try {
      const res = await closed.call('POST', '/api/v1/bpm/internal/instances', {
        body: { tenant_id: 1, initiator_id: 1, definition_key: 'x', biz_id: 'y' },
        headers: { 'x-internal-token': '' },
      });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(50300);
      const lookup = await closed.call(
        'GET',
        '/api/v1/bpm/internal/instances/by-biz?biz_type=a&biz_id=b',
      );
      expect(lookup.status).toBe(503);
    } finally {
      await closed.close();
    }
  });
});
