import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { singleApproval } from '../bpm/fixtures.js';
import { INTERNAL_TOKEN, type callbackReceiver, type Topology } from './topology.js';

// The steps of a BPM flow through a topology's gateway, shared by the topology tests.

export type Receiver = Awaited<ReturnType<typeof callbackReceiver>>;

export async function signIn(topology: Topology, username = 'admin', password = 'admin123') {
  const res = await topology.call('POST', '/api/v1/login', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.body.data.access_token as string;
}

/** A published business definition: one approval by admin (id 1), optionally with a timeout. */
export async function publishDefinition(
  topology: Topology,
  token: string,
  bizType: string,
  timeout?: { hours: number; action: 'auto_approve' },
) {
  const tree = singleApproval([1]);
  const created = await topology.call('POST', '/api/v1/bpm/definitions', {
    token,
    body: {
      key: `topo-${randomUUID().slice(0, 8)}`,
      name: 'Order',
      form_mode: 'business',
      biz_type: bizType,
      form_schema: {
        fields: [{ key: 'reason', label: 'Reason', type: 'textarea', required: true }],
      },
      node_tree: {
        ...tree,
        // The admin both starts (as the business initiator) and approves here.
        child: { ...tree.child, allowInitiator: true, ...(timeout ? { timeout } : {}) },
      },
    },
  });
  expect(created.status).toBe(200);
  const published = await topology.call(
    'POST',
    `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
    { token },
  );
  expect(published.status).toBe(200);
  return created.body.data.key as string;
}

export async function startInstance(topology: Topology, key: string): Promise<number> {
  const started = await topology.call('POST', '/api/v1/bpm/internal/instances', {
    headers: { 'x-internal-token': INTERNAL_TOKEN },
    body: {
      tenant_id: 1,
      initiator_id: 1,
      definition_key: key,
      biz_id: randomUUID(),
      form: { reason: 'topology' },
    },
  });
  expect(started.status).toBe(200);
  return started.body.data.id as number;
}

/** One query on the topology's database, as an operator would look. */
export async function query<T>(topology: Topology, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: topology.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

export const statusOf = async (topology: Topology, token: string, id: number) =>
  (await topology.call('GET', `/api/v1/bpm/instances/${id}`, { token })).body.data.status as string;

export const callbacksOf = (receiver: Receiver, id: number) =>
  receiver.received.filter((r) => r.body.instance_id === id);
