import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../src/start.js';
import { onRealServers } from '../helpers/real-servers.js';
import {
  callbacksOf,
  publishDefinition,
  query,
  signIn,
  startInstance,
  statusOf,
  type Receiver,
} from './flows.js';
import { callbackReceiver, MAIN, startTopology, until, type Topology } from './topology.js';

/**
 * The production layout end to end: separate processes from the built dist/, started together
 * on a fresh database after `migrate`, on real PostgreSQL, Redis and NATS.
 */

/** Business types (one definition each per tenant) whose callbacks go to the test's receiver. */
const ORDER = 'topology-order';
const TIMED = 'topology-timed';
const FAST_JOBS = {
  BPM_TIMEOUT_SCAN_INTERVAL: '300ms',
  BPM_OUTBOX_POLL_INTERVAL: '200ms',
  MONITOR_SAMPLE_INTERVAL: '1s',
};
const callbacksTo = (url: string) => ({
  BPM_CALLBACK_TOPOLOGY_ORDER: url,
  BPM_CALLBACK_TOPOLOGY_TIMED: url,
});

describe.runIf(onRealServers)('production topology: one process per service', () => {
  let topology: Topology;
  let receiver: Receiver;
  let token: string;

  beforeAll(async () => {
    receiver = await callbackReceiver();
    topology = await startTopology({ env: { ...FAST_JOBS, ...callbacksTo(receiver.url) } });
    token = await signIn(topology);
  });
  afterAll(async () => {
    await topology?.close();
    await receiver?.close();
  });

  it('runs a BPM flow to its end and delivers the callback to the business back end', async () => {
    const key = await publishDefinition(topology, token, ORDER);
    const id = await startInstance(topology, key);
    const todo = await topology.call('GET', '/api/v1/bpm/tasks/todo?page_size=100', { token });
    const task = todo.body.data.list.find((t: any) => t.instance_id === id);
    const approved = await topology.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token,
      body: {},
    });
    expect(approved.status).toBe(200);
    expect(await statusOf(topology, token, id)).toBe('approved');
    const [callback] = await until('the callback reaches the receiver', async () => {
      const got = callbacksOf(receiver, id);
      return got.length > 0 ? got : undefined;
    });
    expect(callback!.body).toMatchObject({ instance_id: id, status: 'approved' });
  });

  it('fires a timeout in the bpm process', async () => {
    const key = await publishDefinition(topology, token, TIMED, {
      hours: 0.0001,
      action: 'auto_approve',
    });
    const id = await startInstance(topology, key);
    await until('the timeout approves the instance', async () =>
      (await statusOf(topology, token, id)) === 'approved' ? true : undefined,
    );
    const timeline = await topology.call('GET', `/api/v1/bpm/instances/${id}/timeline`, { token });
    expect(
      timeline.body.data
        .filter((e: any) => e.action === 'auto_approve')
        .map((e: any) => e.operator_id),
    ).toEqual([0]);
  });

  it('stores a login event in the login logs', async () => {
    const username = `topo_${randomUUID().slice(0, 8)}`;
    const created = await topology.call('POST', '/api/v1/users', {
      token,
      body: { username, password: 'Topology-Passw0rd!', role_ids: [] },
    });
    expect(created.status).toBe(200);
    await signIn(topology, username, 'Topology-Passw0rd!');
    const logs = await until('the login reaches the login logs', async () => {
      const res = await topology.call('GET', `/api/v1/login-logs?username=${username}`, { token });
      // The list, not the total: the two are separate statements, and an event stored between
      // them makes a total of 1 beside an empty page (seen once in CI).
      return res.body.data.list.length > 0 ? res.body.data.list : undefined;
    });
    expect(logs).toEqual([expect.objectContaining({ username, success: true })]);
  });

  it('records an operation log in each service', async () => {
    const requests = {
      auth: '/api/v1/me',
      identity: '/api/v1/users',
      bpm: '/api/v1/bpm/definitions',
      audit: '/api/v1/login-logs',
    };
    const ids: Record<string, string> = {};
    for (const [service, path] of Object.entries(requests)) {
      ids[service] = `topo-${service}-${randomUUID()}`;
      const res = await topology.call('GET', path, {
        token,
        headers: { 'x-request-id': ids[service]! },
      });
      expect(res.status).toBe(200);
    }
    for (const [service, requestId] of Object.entries(ids)) {
      const rows = await until(`the ${service} service records its request`, async () => {
        const res = await topology.call('GET', `/api/v1/operation-logs?request_id=${requestId}`, {
          token,
        });
        return res.body.data.total > 0 ? res.body.data.list : undefined;
      });
      expect(rows.map((r: any) => [r.request_id, r.path])).toEqual([
        [requestId, requests[service as keyof typeof requests]],
      ]);
    }
  });

  it('streams an upload through the gateway process to the files process and back', async () => {
    const bytes = Buffer.from(randomUUID().repeat(4000));
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/plain' }), 'topology.txt');
    const uploaded = await fetch(`${topology.gatewayUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const file = ((await uploaded.json()) as { data: { url: string; size: number } }).data;
    expect(file.size).toBe(bytes.length);
    const served = await fetch(`${topology.gatewayUrl}${file.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('runs every background job in its service process, each reporting its heartbeat', async () => {
    const expected = [
      'audit.login_consumer',
      'audit.notify_outbox',
      'auth.login_relay',
      'bpm.outbox',
      'bpm.timeout_scanner',
      'monitor.metric_sampler',
    ];
    const names = await until('each job reports a heartbeat', async () => {
      const rows = await query<{ name: string }>(
        topology,
        `SELECT name FROM mon_job_heartbeats WHERE status = 'ok' ORDER BY name`,
      );
      const got = rows.map((r) => r.name);
      return expected.every((n) => got.includes(n)) ? got : undefined;
    });
    expect(names).toEqual(expected);
  });

  it('probes every service process from the monitor process, and samples their rates', async () => {
    const res = await topology.call('GET', '/api/v1/monitor/services', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: any) => [s.name, s.status])).toEqual(
      SERVICE_NAMES.map((name) => [name, 'ready']),
    );
    const rated = await until('a request rate for every service', async () => {
      const trends = await topology.call(
        'GET',
        '/api/v1/monitor/metrics/trends?range=1h&metric=service.request_rate',
        { token },
      );
      const services = trends.body.data.series.map((s: any) => s.service).sort();
      return services.length === SERVICE_NAMES.length ? services : undefined;
    });
    expect(rated).toEqual([...SERVICE_NAMES].sort());
  });

  it('writes nothing but JSON log lines, library notices included', () => {
    for (const p of topology.processes) {
      const lines = p.output.join('').split('\n');
      // A full buffer has dropped its oldest chunks: its first line may be cut.
      if (p.output.length >= 400) lines.shift();
      const plain = lines.filter((line) => {
        if (line.trim() === '') return false;
        try {
          return typeof JSON.parse(line) !== 'object';
        } catch {
          return true;
        }
      });
      expect({ process: p.name, plain }).toEqual({ process: p.name, plain: [] });
    }
  });

  it('reports not ready while a service is stopped, and ready once it is back', async () => {
    const identity = topology.processes.find((p) => p.name === 'identity')!;
    await topology.stop(identity);
    const down = await until('readiness turns 503', async () => {
      const res = await topology.call('GET', '/api/v1/health/ready');
      return res.status === 503 ? res.body : undefined;
    });
    expect(down.data.services.identity.status).toBe('down');
    expect(down.data.services.auth.status).toBe('ready');
    topology.restart(identity);
    const up = await until('readiness is 200 again', async () => {
      const res = await topology.call('GET', '/api/v1/health/ready');
      return res.status === 200 ? res.body : undefined;
    });
    expect(up.data.status).toBe('ready');
  });
});

describe.runIf(onRealServers)('production topology: three bpm and two audit replicas', () => {
  const INSTANCES = 12;
  let topology: Topology;
  let receiver: Receiver;
  let token: string;

  beforeAll(async () => {
    receiver = await callbackReceiver();
    topology = await startTopology({
      replicas: { bpm: 3, audit: 2 },
      env: {
        ...FAST_JOBS,
        ...callbacksTo(receiver.url),
        BPM_CALLBACK_TOPOLOGY_BURST: receiver.url,
      },
    });
    token = await signIn(topology);
  });
  afterAll(async () => {
    await topology?.close();
    await receiver?.close();
  });

  it('acts on each timeout once and delivers each callback once', async () => {
    const key = await publishDefinition(topology, token, TIMED, {
      hours: 0.0001,
      action: 'auto_approve',
    });
    const ids: number[] = [];
    for (let i = 0; i < INSTANCES; i++) ids.push(await startInstance(topology, key));
    // Delivered means the outbox row is marked so: a second delivery could only come before.
    await until(
      'every callback is delivered',
      async () => (ids.every((id) => callbacksOf(receiver, id).length > 0) ? true : undefined),
      60_000,
    );
    for (const id of ids) {
      const timeline = await topology.call('GET', `/api/v1/bpm/instances/${id}/timeline`, {
        token,
      });
      expect(timeline.body.data.filter((e: any) => e.action === 'auto_approve')).toHaveLength(1);
      expect(await statusOf(topology, token, id)).toBe('approved');
    }
    await until('every outbox row is marked delivered', async () => {
      const [row] = await query<{ n: number }>(
        topology,
        `SELECT count(*)::int AS n FROM bpm_outbox WHERE kind = 'callback' AND status <> 'delivered'`,
      );
      return row!.n === 0 ? true : undefined;
    });
    const perEvent = new Map<string, number>();
    for (const r of receiver.received) perEvent.set(r.eventId, (perEvent.get(r.eventId) ?? 0) + 1);
    expect([...perEvent.values()]).toEqual(ids.map(() => 1));
    const byId = (a: number, b: number) => a - b;
    expect(receiver.received.map((r) => r.body.instance_id as number).sort(byId)).toEqual(
      [...ids].sort(byId),
    );
  });

  it('drains a burst of 1,000 callbacks across the three replicas, each once, none stuck', async () => {
    const BURST = 1000;
    const burst = randomUUID();
    // A business event burst, written as the engine writes callbacks (RELIABILITY row 9).
    await query(
      topology,
      `INSERT INTO bpm_outbox (tenant_id, kind, event_id, target, payload)
       SELECT 1, 'callback', gen_random_uuid(), 'topology-burst',
              jsonb_build_object('event', 'topology.burst', 'burst', '${burst}', 'seq', g)
       FROM generate_series(1, ${BURST}) AS g`,
    );
    const rows = () =>
      query<{
        pending: number;
        delivered: number;
        claimed_again: number;
        p99_ms: number;
        all_ms: number;
      }>(
        topology,
        `SELECT count(*) FILTER (WHERE status <> 'delivered')::int AS pending,
                count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE lease_version > 1)::int AS claimed_again,
                percentile_cont(0.99) WITHIN GROUP
                  (ORDER BY extract(epoch FROM delivered_at - created_at)) * 1000 AS p99_ms,
                extract(epoch FROM max(delivered_at) - min(created_at))::float * 1000 AS all_ms
         FROM bpm_outbox WHERE payload->>'burst' = '${burst}'`,
      );
    const drained = await until(
      'the burst is delivered',
      async () => {
        const [r] = await rows();
        return r!.pending === 0 ? r! : undefined;
      },
      60_000,
    );
    // Each row claimed once (no lease ran out mid-delivery) and marked delivered; the receiver
    // saw each event id exactly once.
    expect({ delivered: drained.delivered, claimed_again: drained.claimed_again }).toEqual({
      delivered: BURST,
      claimed_again: 0,
    });
    const seen = new Map<string, number>();
    for (const r of receiver.received.filter((x) => x.body.burst === burst))
      seen.set(r.eventId, (seen.get(r.eventId) ?? 0) + 1);
    expect(seen.size).toBe(BURST);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // The drain time, for the record (docs/fault-matrix.md row 9): from the rows' commit to
    // their delivery, p99 of each row's and the whole burst's.
    process.stdout.write(
      `outbox burst: ${BURST} callbacks, 3 bpm replicas: p99 ${Math.round(drained.p99_ms)} ms per row, all delivered in ${Math.round(drained.all_ms)} ms\n`,
    );
  });

  it('stores each login event once with two audit consumers', async () => {
    const username = `topo_${randomUUID().slice(0, 8)}`;
    await topology.call('POST', '/api/v1/users', {
      token,
      body: { username, password: 'Topology-Passw0rd!', role_ids: [] },
    });
    for (let i = 0; i < 5; i++) await signIn(topology, username, 'Topology-Passw0rd!');
    const logs = await until('five logins reach the login logs', async () => {
      const res = await topology.call('GET', `/api/v1/login-logs?username=${username}`, { token });
      return res.body.data.total >= 5 ? res.body.data : undefined;
    });
    expect(logs.total).toBe(5);
  });
});

describe("the README's production section", () => {
  it('is the commands these tests run', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Production'),
      readme.indexOf('\n## ', readme.indexOf('## Production') + 1),
    );
    const commands = [...section.matchAll(/node (\S+) (migrate|serve --service \w+)/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    // Every service of the one module list, in its order, then the gateway.
    expect(commands).toEqual([
      `${MAIN} migrate`,
      ...SERVICE_NAMES.map((name) => `${MAIN} serve --service ${name}`),
      `${MAIN} serve --service gateway`,
    ]);
  });
});
