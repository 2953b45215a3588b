import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealServers } from '../helpers/real-servers.js';
import { publishDefinition, query, signIn, startInstance } from './flows.js';
import { startTopology, until, type ServiceProcess, type Topology } from './topology.js';

/**
 * RELIABILITY matrix row 8: the bpm replica delivering a callback is paused (SIGSTOP) past its
 * outbox lease; the other replica takes the row over and delivers it. When the paused one wakes
 * up and finishes, its completion is fenced by lease owner and version: it changes nothing, and
 * the business back end has seen one event id.
 */

const LEASE = 2_000;

interface Delivery {
  eventId: string;
  answer: (status: number) => void;
}

describe.runIf(onRealServers)('a bpm replica paused past its outbox lease', () => {
  let topology: Topology;
  let token: string;
  const deliveries: Delivery[] = [];
  const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      deliveries.push({
        eventId: String(req.headers['idempotency-key']),
        answer: (status) => {
          if (!res.headersSent) res.writeHead(status).end();
        },
      });
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    topology = await startTopology({
      replicas: { bpm: 2 },
      env: {
        BPM_OUTBOX_POLL_INTERVAL: '100ms',
        BPM_OUTBOX_LEASE: `${LEASE}ms`,
        BPM_CALLBACK_TOPOLOGY_LEASE: `http://127.0.0.1:${port}/callback`,
      },
    });
    token = await signIn(topology);
  });
  afterAll(async () => {
    for (const p of topology?.processes ?? []) p.child.kill('SIGCONT');
    for (const d of deliveries) d.answer(200);
    await topology?.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('has its late completion fenced: the row keeps the other replica’s delivery', async () => {
    const [first, second] = topology.processes.filter((p) => p.name === 'bpm') as [
      ServiceProcess,
      ServiceProcess,
    ];
    // Only the first replica runs while the request finishes, so it claims the callback.
    await topology.stop(second);
    const key = await publishDefinition(topology, token, 'topology-lease');
    const id = await startInstance(topology, key);
    const todo = await topology.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', { token });
    const task = todo.body.data.list.find((t: { instance_id: number }) => t.instance_id === id);
    const approved = await topology.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token,
      body: {},
    });
    expect(approved.status).toBe(200);

    // The first replica's delivery reaches the receiver, which holds its answer; the replica is
    // paused while it holds the lease.
    const held = await until('the first delivery', async () => deliveries[0]);
    first.child.kill('SIGSTOP');
    const rowOf = async () =>
      (
        await query<{
          status: string;
          lease_owner: string | null;
          lease_version: number;
          delivered_at: Date | null;
          attempts: number;
        }>(
          topology,
          `SELECT status, lease_owner, lease_version, delivered_at, attempts FROM bpm_outbox
            WHERE kind = 'callback' AND payload->>'instance_id' = '${id}'`,
        )
      )[0]!;
    const claimed = await rowOf();
    expect(claimed.lease_owner).not.toBeNull();

    // The second replica starts, waits out the lease, claims the row and delivers it.
    const restarted = topology.restart(second);
    const again = await until(
      'the delivery of the second replica',
      async () => deliveries[1],
      30_000,
    );
    expect(again.eventId).toBe(held.eventId);
    again.answer(200);
    const delivered = await until('the row delivered by the second replica', async () => {
      const row = await rowOf();
      return row.status === 'delivered' ? row : undefined;
    });
    expect(delivered.lease_version).toBeGreaterThan(claimed.lease_version);

    // The first replica wakes up to a 2xx for its own attempt, and tries to complete the row.
    held.answer(200);
    first.child.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE));
    expect(await rowOf()).toEqual(delivered);
    // One event id at the business back end, and nobody delivered it a third time.
    expect(deliveries.map((d) => d.eventId)).toEqual([held.eventId, held.eventId]);
    // Both replicas are up: the pause ended nothing.
    expect([first.child.exitCode, restarted.child.exitCode]).toEqual([null, null]);
  });
});
