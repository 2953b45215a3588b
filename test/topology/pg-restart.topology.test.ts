import { exec } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealServers } from '../helpers/real-servers.js';
import {
  callbacksOf,
  publishDefinition,
  query,
  signIn,
  startInstance,
  type Receiver,
} from './flows.js';
import { callbackReceiver, startTopology, until, type Topology } from './topology.js';

/**
 * RELIABILITY matrix row 11 and issue 19's example: PostgreSQL restarted (a real restart of the
 * server, not dropped connections) while approvals run through the production layout. Every
 * process stays up, every service answers again within 15 s, no approval the client was told
 * succeeded is lost, and each finished request's callback arrives under one event id.
 *
 * It restarts the machine's PostgreSQL, which every other test on it would feel: it runs only
 * where `PG_RESTART_COMMAND` says how (`.ci/run` sets it for its serial topology step).
 */

const RESTART = process.env.PG_RESTART_COMMAND;
const REQUESTS = 40;
const CLIENTS = 4;

describe.runIf(onRealServers && RESTART)('PostgreSQL restarted under the production layout', () => {
  let topology: Topology;
  let receiver: Receiver;
  let token: string;

  beforeAll(async () => {
    receiver = await callbackReceiver();
    topology = await startTopology({
      env: {
        BPM_OUTBOX_POLL_INTERVAL: '200ms',
        BPM_CALLBACK_TOPOLOGY_RESTART: receiver.url,
      },
    });
    token = await signIn(topology);
  });
  afterAll(async () => {
    await topology?.close();
    await receiver?.close();
  });

  it('keeps every process up, answers again within 15 s, and loses no acknowledged approval', async () => {
    const key = await publishDefinition(topology, token, 'topology-restart');
    const ids: number[] = [];
    for (let i = 0; i < REQUESTS; i++) ids.push(await startInstance(topology, key));
    const todo = await topology.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', { token });
    const tasks = todo.body.data.list
      .filter((t: { instance_id: number }) => ids.includes(t.instance_id))
      .map((t: { id: number }) => t.id as number);
    expect(tasks).toHaveLength(REQUESTS);

    // Clients approve the tasks one after another; each approval is retried with its
    // Idempotency-Key while the platform answers 503, as a client following the contract would.
    const answers = new Map<string, number>();
    const acknowledged: number[] = [];
    let restarted = false;
    const queue = [...tasks];
    const approveAll = async () => {
      for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
        const idempotencyKey = randomUUID();
        for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
          const res = await topology.call('POST', `/api/v1/bpm/tasks/${task}/approve`, {
            token,
            body: {},
            headers: { 'idempotency-key': idempotencyKey },
          });
          const answer = `${res.status} ${res.body?.code}`;
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
          if (res.status === 200) {
            acknowledged.push(task);
            break;
          }
          if (res.status !== 503) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        // Slow enough that the restart lands among the approvals, not after them.
        if (!restarted) await new Promise((r) => setTimeout(r, 100));
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, approveAll));
    await until('some approvals before the restart', async () =>
      acknowledged.length >= 4 ? true : undefined,
    );
    await promisify(exec)(RESTART!);
    restarted = true;
    const restartedAt = Date.now();
    await until(
      'the gateway reports every service ready again',
      async () =>
        (await topology.call('GET', '/api/v1/health/ready')).status === 200 ? true : undefined,
      15_000,
    );
    const readyAfter = Date.now() - restartedAt;
    await load;

    // Nothing died: every process is the one started with the topology.
    for (const p of topology.processes) {
      expect([p.name, p.child.exitCode, p.child.signalCode]).toEqual([p.name, null, null]);
    }
    expect(readyAfter).toBeLessThan(15_000);
    // The outage is logged as warnings, never as errors with a stack.
    for (const p of topology.processes) {
      const errors = p.output
        .join('')
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      expect([p.name, errors]).toEqual([p.name, []]);
    }
    // Every answer was a success or the contract's "dependency down"; never a 500.
    for (const answer of answers.keys()) expect(answer).toMatch(/^(200 200|503 50300)$/);
    expect(answers.get('503 50300') ?? 0).toBeGreaterThan(0);
    // Every task was approved once in the end, and the database says so.
    expect([...acknowledged].sort((a, b) => a - b)).toEqual([...tasks].sort((a, b) => a - b));
    const rows = await query<{ id: number; status: string }>(
      topology,
      `SELECT id, status FROM bpm_instances WHERE id IN (${ids.join(',')})`,
    );
    expect(rows.filter((r) => r.status !== 'approved')).toEqual([]);
    // Each request's callback arrives, under one event id however often it was delivered, and
    // its timeline holds the approval once.
    for (const id of ids) {
      const timeline = await topology.call('GET', `/api/v1/bpm/instances/${id}/timeline`, {
        token,
      });
      expect(
        timeline.body.data.filter((e: { action: string }) => e.action === 'approve'),
      ).toHaveLength(1);
      const got = await until(`the callback of instance ${id}`, async () => {
        const callbacks = callbacksOf(receiver, id);
        return callbacks.length > 0 ? callbacks : undefined;
      });
      expect(new Set(got.map((c) => c.eventId)).size).toBe(1);
    }
  });
});
