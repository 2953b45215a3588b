import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, singleApproval } from './fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

async function published(overrides: Record<string, unknown> = {}) {
  const created = await createDefinition(platform, admin, overrides);
  expect(created.status).toBe(200);
  const res = await platform.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token: admin },
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('definitions', () => {
  it('creates version 1 as a draft and publishes it', async () => {
    const created = await createDefinition(platform, admin);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      version: 1,
      status: 'draft',
      form_mode: 'flow',
      published_at: null,
    });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin },
    );
    expect(res.body.data.status).toBe('published');
    expect(new Date(res.body.data.published_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('reports every problem of the tree at once, naming the node, and publishes nothing', async () => {
    const created = await createDefinition(platform, admin, {
      node_tree: {
        id: 'start',
        type: 'start',
        name: 'Submit',
        child: {
          id: 'a1',
          type: 'approval',
          name: 'No rule',
          mode: 'and',
          child: {
            id: 'b1',
            type: 'branch',
            name: 'Only one branch',
            branches: [{ id: 'x', name: 'x', default: true, child: null }],
          },
        },
      },
    });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    const text = JSON.stringify(res.body.data.fields);
    expect(text).toContain('a1');
    expect(text).toContain('b1');
    expect(res.body.data.fields.length).toBeGreaterThanOrEqual(2);
    const after = await platform.call('GET', `/api/v1/bpm/definitions/${created.body.data.id}`, {
      token: admin,
    });
    expect(after.body.data.status).toBe('draft');
  });

  it('refuses to publish a start node that hides fields (it would have no effect)', async () => {
    const tree = { ...singleApproval([1]), hiddenFields: ['amount'] };
    const created = await createDefinition(platform, admin, { node_tree: tree });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin },
    );
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual([
      expect.objectContaining({ field: 'node_tree.start', rule: 'option' }),
    ]);
    expect(res.body.data.fields[0].message).toContain('a start node cannot hide fields');
  });

  it('refuses to publish rules naming users or roles the tenant does not have', async () => {
    const tree = {
      id: 'start',
      type: 'start',
      name: 'Submit',
      child: {
        id: 'people',
        type: 'approval',
        name: 'People',
        mode: 'or',
        assignee: { type: 'users', userIds: [1, 987_654_321] },
        child: {
          id: 'team',
          type: 'cc',
          name: 'Team',
          assignee: { type: 'roles', roleIds: [987_654_321] },
          child: null,
        },
      },
    };
    const created = await createDefinition(platform, admin, { node_tree: tree });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin },
    );
    expect([res.status, res.body.code]).toEqual([400, 40001]);
    expect(res.body.data.fields.map((f: any) => [f.field, f.message])).toEqual([
      ['node_tree.people', 'node "people": user 987654321 does not exist'],
      ['node_tree.team', 'node "team": role 987654321 does not exist'],
    ]);
  });

  it('publishes with a warning a condition on an optional field that no earlier branch routes when empty', async () => {
    const tree = {
      id: 'start',
      type: 'start',
      name: 'Submit',
      child: {
        id: 'size',
        type: 'branch',
        name: 'Size',
        branches: [
          {
            id: 'big',
            name: 'Big',
            condition: { field: 'amount', op: 'gt', value: 1000 },
            child: null,
          },
          { id: 'other', name: 'Other', default: true, child: null },
        ],
        child: null,
      },
    };
    const created = await createDefinition(platform, admin, { node_tree: tree });
    const res = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
      { token: admin },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('published');
    expect(res.body.data.warnings).toEqual([
      { field: 'node_tree.size', message: expect.stringContaining('"amount"') },
    ]);
  });

  it('archives the previous version when a new one is published', async () => {
    const v1 = await published();
    const v2 = await platform.call('POST', `/api/v1/bpm/definitions/${v1.id}/new-version`, {
      token: admin,
    });
    expect(v2.body.data).toMatchObject({ key: v1.key, version: 2, status: 'draft' });
    const again = await platform.call('POST', `/api/v1/bpm/definitions/${v1.id}/new-version`, {
      token: admin,
    });
    expect(again.status).toBe(409);
    await platform.call('POST', `/api/v1/bpm/definitions/${v2.body.data.id}/publish`, {
      token: admin,
    });
    const list = await platform.call('GET', `/api/v1/bpm/definitions?key=${v1.key}`, {
      token: admin,
    });
    expect(list.body.data.list.map((d: any) => [d.version, d.status])).toEqual([
      [2, 'published'],
      [1, 'archived'],
    ]);
  });

  it('changes drafts only', async () => {
    const v1 = await published();
    const res = await platform.call('PUT', `/api/v1/bpm/definitions/${v1.id}`, {
      token: admin,
      body: { name: 'Renamed' },
    });
    expect(res.status).toBe(409);
    const draft = await createDefinition(platform, admin);
    const ok = await platform.call('PUT', `/api/v1/bpm/definitions/${draft.body.data.id}`, {
      token: admin,
      body: { name: 'Renamed' },
    });
    expect(ok.body.data.name).toBe('Renamed');
  });

  it('refuses a duplicate key and an invalid form schema', async () => {
    const first = await createDefinition(platform, admin);
    const dup = await createDefinition(platform, admin, { key: first.body.data.key });
    expect(dup.status).toBe(409);
    const bad = await createDefinition(platform, admin, {
      form_schema: {
        fields: [
          { key: 'k', label: 'K', type: 'select' },
          { key: 'k', label: 'K2', type: 'colour' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40001);
    expect(bad.body.data.fields.length).toBeGreaterThanOrEqual(2);
  });

  it('requires a biz_type for business definitions', async () => {
    const res = await createDefinition(platform, admin, { form_mode: 'business' });
    expect(res.status).toBe(400);
    expect(res.body.data.fields[0].field).toBe('biz_type');
    const ok = await createDefinition(platform, admin, {
      form_mode: 'business',
      biz_type: uniq('contract').toLowerCase(),
    });
    expect(ok.status).toBe(200);
  });

  it('suspends a published version and drops it from the startable list', async () => {
    const def = await published();
    let startable = await platform.call('GET', '/api/v1/bpm/startable?page_size=100', {
      token: admin,
    });
    expect(startable.body.data.list.map((d: any) => d.key)).toContain(def.key);
    const res = await platform.call('POST', `/api/v1/bpm/definitions/${def.id}/suspend`, {
      token: admin,
    });
    expect(res.body.data.status).toBe('suspended');
    startable = await platform.call('GET', '/api/v1/bpm/startable?page_size=100', { token: admin });
    expect(startable.body.data.list.map((d: any) => d.key)).not.toContain(def.key);
    const refused = await platform.call('POST', '/api/v1/bpm/instances', {
      token: admin,
      body: { definition_key: def.key, form: { reason: 'r', days: 1 } },
    });
    expect([refused.status, refused.body.code]).toEqual([409, 40900]);
    const mine = await platform.call('GET', '/api/v1/bpm/instances/my?page_size=100', {
      token: admin,
    });
    expect(mine.body.data.list.map((i: any) => i.definition_key)).not.toContain(def.key);
  });

  it('lists a definition as startable only for its starters', async () => {
    const insider = await createUserWith(platform, []);
    const outsider = await createUserWith(platform, []);
    const def = await published({ starters: { user_ids: [insider.id] } });
    const mine = await platform.call('GET', '/api/v1/bpm/startable?page_size=100', {
      token: insider.token,
    });
    expect(mine.body.data.list.map((d: any) => d.key)).toContain(def.key);
    const theirs = await platform.call('GET', '/api/v1/bpm/startable?page_size=100', {
      token: outsider.token,
    });
    expect(theirs.body.data.list.map((d: any) => d.key)).not.toContain(def.key);
  });
});

describe('definition access', () => {
  it('needs the bpm:definition codes', async () => {
    const plain = await createUserWith(platform, []);
    const list = await platform.call('GET', '/api/v1/bpm/definitions', { token: plain.token });
    expect(list.status).toBe(403);
    const create = await createDefinition(platform, plain.token);
    expect(create.status).toBe(403);
    const designer = await createUserWith(platform, ['bpm:definition:*']);
    expect((await createDefinition(platform, designer.token)).status).toBe(200);
  });

  it('validates the bearer token itself and ignores X-Auth-* headers', async () => {
    const none = await platform.call('GET', '/api/v1/bpm/definitions', {
      headers: { 'x-auth-user-id': '1', 'x-auth-permissions': '*' },
    });
    expect(none.status).toBe(401);
    const direct = await fetch(`${platform.serviceUrls.bpm}/api/v1/bpm/definitions`, {
      headers: { 'x-auth-user-id': '1', 'x-auth-tenant-id': '1', 'x-auth-permissions': '*' },
    });
    expect(direct.status).toBe(401);
  });

  it('hides another tenant\u2019s definitions (404)', async () => {
    const def = await published();
    const code = uniq('t').toLowerCase();
    await platform.call('POST', '/api/v1/tenants', {
      token: admin,
      body: { code, name: 'Other', admin_username: 'boss', admin_password: 'Other-Passw0rd!' },
    });
    const other = (await platform.login('boss', 'Other-Passw0rd!', code)).access_token;
    for (const [method, path] of [
      ['GET', `/api/v1/bpm/definitions/${def.id}`],
      ['POST', `/api/v1/bpm/definitions/${def.id}/suspend`],
      ['POST', `/api/v1/bpm/definitions/${def.id}/new-version`],
    ] as const) {
      const res = await platform.call(method, path, { token: other });
      expect(res.status).toBe(404);
    }
    const list = await platform.call('GET', '/api/v1/bpm/definitions', { token: other });
    expect(list.body.data.total).toBe(0);
  });

  it('answers the BPM readiness probe without a token', async () => {
    const res = await platform.call('GET', '/api/v1/bpm/health/ready');
    expect(res.status).toBe(200);
  });
});
