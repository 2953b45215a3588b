/**
 * The load generator's side of `npm run bench:bpm`: JSON calls through the gateway with undici,
 * the set-up (users, a published two-approval definition), and the closed-loop flow clients.
 */
import { Pool } from 'undici';

export interface Reply<T = unknown> {
  status: number;
  body: { code: number; message: string; data: T };
  ms: number;
}

/**
 * Kept-alive connections to the gateway, or to several gateways taking the calls in turn (a
 * gateway fronts one replica of each service, so several spread the load over the replicas);
 * every call carries a bearer token. `connections` is per gateway.
 */
export class Api {
  private readonly pools: Pool[];
  private next = 0;
  constructor(origins: string | readonly string[], connections: number) {
    this.pools = (typeof origins === 'string' ? [origins] : origins).map(
      (origin) => new Pool(origin, { connections, pipelining: 1 }),
    );
  }

  async call<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    token?: string,
    body?: unknown,
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const pool = this.pools[this.next++ % this.pools.length]!;
    const started = performance.now();
    const res = await pool.request({
      method,
      path,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.body.json()) as Reply<T>['body'];
    return { status: res.statusCode, body: json, ms: performance.now() - started };
  }

  /** Like `call`, but anything but 200 throws with the answer's code and message. */
  async ok<T = unknown>(method: 'GET' | 'POST', path: string, token?: string, body?: unknown) {
    const reply = await this.call<T>(method, path, token, body);
    if (reply.status !== 200)
      throw new Error(
        `${method} ${path}: ${reply.status} ${reply.body.code} ${reply.body.message}`,
      );
    return reply.body.data;
  }

  async close() {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}

export interface User {
  id: number;
  username: string;
  token: string;
}

const PASSWORD = 'Bench-Passw0rd!';

export async function login(api: Api, username: string, password: string): Promise<string> {
  const data = await api.ok<{ access_token: string }>('POST', '/api/v1/login', undefined, {
    username,
    password,
  });
  return data.access_token;
}

/**
 * A plain user (no role: starting a definition without starters and approving need none),
 * signed in. An administrator-created user must change the password at first sign-in: the
 * change is made to a temporary password and back, and the session goes on.
 */
export async function createUser(api: Api, admin: string, username: string): Promise<User> {
  const user = await api.ok<{ id: number }>('POST', '/api/v1/users', admin, {
    username,
    password: PASSWORD,
    role_ids: [],
  });
  const token = await login(api, username, PASSWORD);
  const temporary = `${PASSWORD}-first-change`;
  for (const [from, to] of [
    [PASSWORD, temporary],
    [temporary, PASSWORD],
  ]) {
    await api.ok('POST', '/api/v1/me/password', token, { old_password: from, new_password: to });
  }
  return { id: user.id, username, token };
}

const FORM_SCHEMA = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'textarea', required: true },
    { key: 'days', label: 'Days', type: 'number', required: true, min: 0.5, max: 30 },
  ],
};

/** start -> approval `n1` (one assignee, `or`) -> approval `n2` (one assignee, `or`) -> end. */
export async function publishTwoApprovals(api: Api, admin: string, first: User, second: User) {
  const approval = (id: string, name: string, user: User, child: unknown) => ({
    id,
    type: 'approval',
    name,
    assignee: { type: 'users', userIds: [user.id] },
    mode: 'or',
    child,
  });
  const draft = await api.ok<{ id: number; key: string }>(
    'POST',
    '/api/v1/bpm/definitions',
    admin,
    {
      key: `bench-two-approvals`,
      name: 'Bench: two approvals',
      form_mode: 'flow',
      form_schema: FORM_SCHEMA,
      node_tree: {
        id: 'start',
        type: 'start',
        name: 'Submit',
        child: approval('n1', 'Approve 1', first, approval('n2', 'Approve 2', second, null)),
      },
    },
  );
  return api.ok<{ id: number; key: string }>(
    'POST',
    `/api/v1/bpm/definitions/${draft.id}/publish`,
    admin,
  );
}

interface TaskItem {
  id: number;
  node_id: string;
  status: string;
}
interface InstanceDetail {
  id: number;
  status: string;
  tasks: TaskItem[];
}

/** What the closed-loop clients recorded inside the measured window. */
export interface LoadFigures {
  clients: number;
  seconds: number;
  requests: number;
  flows: number;
  errors: number;
  /** Every request's latency (ms), and per kind. */
  latencies: number[];
  startMs: number[];
  approveMs: number[];
  firstError: string | undefined;
}

export interface FlowSetup {
  api: Api;
  key: string;
  initiators: User[];
  approvers: [User, User];
}

/**
 * `clients` closed-loop clients, each: start an instance, approve node 1, approve node 2; one
 * request after another, no think time. They run for `warmupS + measureS` seconds; requests
 * that complete inside the last `measureS` seconds are recorded. A failed request counts as an
 * error and its client begins a new flow.
 */
export async function runFlows(
  setup: FlowSetup,
  clients: number,
  warmupS: number,
  measureS: number,
  marks: { start(): Promise<void>; end(): Promise<void> },
): Promise<LoadFigures> {
  const { api, key, approvers } = setup;
  const figures: LoadFigures = {
    clients,
    seconds: measureS,
    requests: 0,
    flows: 0,
    errors: 0,
    latencies: [],
    startMs: [],
    approveMs: [],
    firstError: undefined,
  };
  const t0 = performance.now();
  const measureFrom = t0 + warmupS * 1000;
  const stopAt = measureFrom + measureS * 1000;
  const inWindow = () => {
    const now = performance.now();
    return now >= measureFrom && now <= stopAt;
  };
  const record = (ms: number, kind: number[]) => {
    if (!inWindow()) return;
    figures.requests++;
    figures.latencies.push(ms);
    kind.push(ms);
  };
  const fail = (what: string) => {
    if (!inWindow()) return;
    figures.errors++;
    figures.firstError ??= what;
  };
  const pendingOn = (instance: InstanceDetail, nodeId: string) =>
    instance.tasks.find((t) => t.node_id === nodeId && t.status === 'pending');

  async function client(initiator: User) {
    while (performance.now() < stopAt) {
      try {
        const started = await api.call<InstanceDetail>(
          'POST',
          '/api/v1/bpm/instances',
          initiator.token,
          {
            definition_key: key,
            form: { reason: 'Bench', days: 2 },
          },
        );
        const first = started.status === 200 ? pendingOn(started.body.data, 'n1') : undefined;
        if (!first) {
          fail(`start: ${started.status} ${started.body.message}`);
          continue;
        }
        record(started.ms, figures.startMs);
        if (performance.now() >= stopAt) break;
        const one = await api.call<{ instance: InstanceDetail }>(
          'POST',
          `/api/v1/bpm/tasks/${first.id}/approve`,
          approvers[0].token,
          { comment: 'ok' },
        );
        const second = one.status === 200 ? pendingOn(one.body.data.instance, 'n2') : undefined;
        if (!second) {
          fail(`approve n1: ${one.status} ${one.body.message}`);
          continue;
        }
        record(one.ms, figures.approveMs);
        if (performance.now() >= stopAt) break;
        const two = await api.call<{ instance: InstanceDetail }>(
          'POST',
          `/api/v1/bpm/tasks/${second.id}/approve`,
          approvers[1].token,
          { comment: 'ok' },
        );
        if (two.status !== 200 || two.body.data.instance.status !== 'approved') {
          fail(`approve n2: ${two.status} ${two.body.message}`);
          continue;
        }
        record(two.ms, figures.approveMs);
        if (inWindow()) figures.flows++;
      } catch (err) {
        fail(String(err));
      }
    }
  }

  // Resource snapshots at the window's edges (CPU time, database statements, event loop).
  const at = (ms: number, mark: () => Promise<void>) =>
    new Promise<void>((resolve) => setTimeout(() => void mark().then(resolve), ms));
  await Promise.all([
    ...setup.initiators.slice(0, clients).map((initiator) => client(initiator)),
    at(warmupS * 1000, marks.start),
    at((warmupS + measureS) * 1000, marks.end),
  ]);
  return figures;
}

/** Percentile of an unsorted sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `fn` while the platform records every statement it sends; returns both. */
export type Traced = <T>(fn: () => Promise<T>) => Promise<{ value: T; statements: string[] }>;

/** One flow, request by request, with the SQL statements each request made the platform send. */
export async function traceFlow(setup: FlowSetup, traced: Traced) {
  const { api, key, initiators, approvers } = setup;
  const started = await traced(() =>
    api.ok<InstanceDetail>('POST', '/api/v1/bpm/instances', initiators[0]!.token, {
      definition_key: key,
      form: { reason: 'Trace', days: 1 },
    }),
  );
  const first = started.value.tasks.find((t) => t.status === 'pending')!;
  const one = await traced(() =>
    api.ok<{ instance: InstanceDetail }>(
      'POST',
      `/api/v1/bpm/tasks/${first.id}/approve`,
      approvers[0].token,
      { comment: 'ok' },
    ),
  );
  const second = one.value.instance.tasks.find((t) => t.status === 'pending')!;
  const two = await traced(() =>
    api.ok<{ instance: InstanceDetail }>(
      'POST',
      `/api/v1/bpm/tasks/${second.id}/approve`,
      approvers[1].token,
      { comment: 'ok' },
    ),
  );
  return [
    { request: 'POST /api/v1/bpm/instances', statements: started.statements },
    { request: 'POST /api/v1/bpm/tasks/:id/approve (n1)', statements: one.statements },
    { request: 'POST /api/v1/bpm/tasks/:id/approve (n2)', statements: two.statements },
  ];
}
