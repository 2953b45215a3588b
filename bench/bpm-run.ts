/**
 * BPM benchmark: `npm run bench:bpm`, on real PostgreSQL only (DATABASE_URL; REDIS_URL when set,
 * and needed, with NATS_URL, by the layouts of several processes). The platform runs in child
 * processes on a scratch database, in each layout of BENCH_BPM_LAYOUTS in turn
 * (bench/bpm-layouts.ts); this process generates the load through the gateway, with bearer
 * tokens, and measures:
 *   1. throughput of a two-approval flow (start, approve n1, approve n2), 8 then 32 clients, in
 *      each layout: latency, CPU per request of the platform (all its processes) and of
 *      PostgreSQL, statements per request kind;
 *   2. the baseline: pgbench TPC-B-like, 8 clients, same server, same duration, before and after;
 *   then on the all-in-one layout:
 *   3. where the time goes: statements per flow, the statements of one traced flow, and a CPU
 *      profile of the platform process (an extra run, not counted in the figures);
 *   4. a mixed load (60 % reads, 30 % approvals, 10 % starts) for BENCH_BPM_MIXED_MINUTES
 *      minutes (10; 0 skips it) with p99 and the platform's memory per minute (bench/bpm-mixed.ts);
 *   5. GET /api/v1/bpm/tasks/todo with 1 000 000 rows in bpm_tasks, EXPLAIN of its SQL.
 * The report (Markdown) goes to stdout, progress to stderr.
 */
import { cpus } from 'node:os';
import pg from 'pg';
import {
  Api,
  createUser,
  login,
  publishTwoApprovals,
  runFlows,
  traceFlow,
  type FlowSetup,
  type Traced,
  type LoadFigures,
  type User,
} from './bpm-client.js';
import {
  cpuBetween,
  cpuSnapshot,
  residentMb,
  summariseProfile,
  waitForQuiet,
  type CpuUse,
} from './bpm-cpu.js';
import {
  ask,
  buildLayouts,
  defaultWorkers,
  layoutProblem,
  parseLayouts,
  startLayout,
  statementCounts,
  statementsPerRequest,
  type RunningLayout,
  type StatementCounts,
} from './bpm-layouts.js';
import { runMixed, type MixedFigures } from './bpm-mixed.js';
import { pgbenchDatabase, type PgbenchFigures } from './bpm-pgbench.js';
import { printReport, type AllInOneDetail, type Resources } from './bpm-report.js';
import type { LayoutRun } from './bpm-report-layouts.js';
import { explainTodo, fillTasks, measureTodo, tableCounts, type TodoFigures } from './bpm-todo.js';

const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.error(
    'npm run bench:bpm needs DATABASE_URL: never benchmark on PGlite. For example:\n' +
      '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 ' +
      'NATS_URL=nats://127.0.0.1:4222 npm run bench:bpm',
  );
  process.exit(2);
}

const env = (name: string, fallback: string) => process.env[name] || fallback;
function layoutsSetting() {
  try {
    return parseLayouts(env('BENCH_BPM_LAYOUTS', 'all-in-one,processes,cluster'));
  } catch (err) {
    console.error(`npm run bench:bpm: ${(err as Error).message}`);
    process.exit(2);
  }
}
const list = (value: string) => value.split(',').map(Number);
const config = {
  warmupS: Number(env('BENCH_BPM_WARMUP', '20')),
  durationS: Number(env('BENCH_BPM_DURATION', '20')),
  clients: list(env('BENCH_BPM_CLIENTS', '8,32')),
  profileS: Number(env('BENCH_BPM_PROFILE', '15')),
  tasks: Number(env('BENCH_BPM_TASKS', '1000000')),
  todoClients: list(env('BENCH_BPM_TODO_CLIENTS', '1,4,16')),
  todoS: Number(env('BENCH_BPM_TODO_DURATION', '10')),
  quietWaitS: Number(env('BENCH_BPM_QUIET_WAIT', '120')),
  mixedMinutes: Number(env('BENCH_BPM_MIXED_MINUTES', '10')),
  mixedClients: Number(env('BENCH_BPM_MIXED_CLIENTS', '16')),
  layouts: layoutsSetting(),
  replicas: Number(env('BENCH_BPM_REPLICAS', '2')),
  workers: Number(env('BENCH_BPM_CLUSTER_WORKERS', String(defaultWorkers()))),
  todoPageSize: 10,
  todoPending: 50,
};
const log = (line: string) => process.stderr.write(`${line}\n`);
const problem = layoutProblem(config.layouts);
if (problem) {
  console.error(
    `npm run bench:bpm: ${problem}. Set it, or BENCH_BPM_LAYOUTS=all-in-one. For example:\n` +
      '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 ' +
      'NATS_URL=nats://127.0.0.1:4222 npm run bench:bpm',
  );
  process.exit(2);
}

/** Phases that began while other work kept the machine busy (named in the report). */
const noisy: string[] = [];
async function quiet(phase: string) {
  const { waitedS, quiet } = await waitForQuiet(config.quietWaitS);
  if (waitedS >= 2.5) log(`  waited ${Math.round(waitedS)} s for the machine to be quiet`);
  if (!quiet) {
    log(`  WARNING: other processes keep the machine busy; measuring ${phase} anyway`);
    noisy.push(phase);
  }
}

/** What bench/bpm-servers.ts counts (all-in-one and cluster layouts). */
interface ServerStats {
  queries: number;
  dbMs: number;
  active: number;
  idle: number;
}

/** CPU, statements and event-loop use of the platform across one measured window. */
function windowProbe(layout: RunningLayout) {
  const pids = layout.processes.map((p) => p.pid);
  const stats = () =>
    layout.child ? ask<ServerStats>(layout.child, 'stats') : Promise.resolve(undefined);
  let cpuStart = cpuSnapshot(pids);
  let statsStart: ServerStats | undefined;
  let kindsStart: StatementCounts = new Map();
  const result: {
    cpu?: CpuUse;
    start?: ServerStats;
    end?: ServerStats;
    perKind?: Map<string, number>;
  } = {};
  return {
    marks: {
      // The scrapes stay outside the CPU window: first at the start, last at the end.
      start: async () => {
        statsStart = await stats();
        kindsStart = await statementCounts(layout.serviceUrls);
        cpuStart = cpuSnapshot(pids);
      },
      end: async () => {
        result.cpu = cpuBetween(cpuStart, cpuSnapshot(pids));
        result.start = statsStart;
        result.end = await stats();
        result.perKind = statementsPerRequest(
          kindsStart,
          await statementCounts(layout.serviceUrls),
        );
      },
    },
    resources(figures: LoadFigures): Resources {
      const { cpu, start, end } = result;
      const d = (k: keyof ServerStats) => (end && start ? end[k] - start[k] : NaN);
      return {
        cpu: cpu!,
        statements: d('queries'),
        statementMs: d('dbMs') / d('queries'),
        eventLoop: d('active') / (d('active') + d('idle')),
        flows: figures.flows,
        perKind: result.perKind ?? new Map(),
      };
    },
  };
}

/** Users (an initiator per client, two approvers, the todo user) and the published definition. */
async function prepare(layout: RunningLayout) {
  const maxClients = Math.max(...config.clients, config.mixedClients);
  const api = new Api(layout.gateways, maxClients + 2);
  const admin = await login(api, 'admin', 'admin123');
  log(`  creating ${maxClients + 3} users`);
  const approvers: [User, User] = [
    await createUser(api, admin, 'bench-approver-1'),
    await createUser(api, admin, 'bench-approver-2'),
  ];
  const initiators: User[] = [];
  for (let i = 1; i <= maxClients; i++)
    initiators.push(await createUser(api, admin, `bench-initiator-${i}`));
  const todoUser = await createUser(api, admin, 'bench-todo-user');
  const definition = await publishTwoApprovals(api, admin, ...approvers);
  const setup: FlowSetup = { api, key: definition.key, initiators, approvers };
  return { setup, todoUser, definition };
}

const cleanups: Array<() => Promise<unknown>> = [];
async function cleanUp() {
  for (const fn of cleanups.reverse()) await fn().catch((err) => log(`clean-up: ${err}`));
  cleanups.length = 0;
}
process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

/** The flow at each client level, in one layout. */
async function measureFlows(layout: RunningLayout, setup: FlowSetup) {
  const loads: LayoutRun['loads'] = [];
  for (const clients of config.clients) {
    await quiet(`${layout.name} flows at ${clients} clients`);
    log(
      `  flows: ${clients} clients, ${config.warmupS} s warm-up + ${config.durationS} s measured`,
    );
    const probe = windowProbe(layout);
    const figures = await runFlows(setup, clients, config.warmupS, config.durationS, probe.marks);
    loads.push({ figures, resources: probe.resources(figures) });
    if (figures.firstError) log(`  first error: ${figures.firstError}`);
  }
  return loads;
}

/** The all-in-one layout beyond the flow: trace, CPU profile, mixed load, todo at scale. */
async function allInOneDetail(
  layout: RunningLayout,
  prepared: Awaited<ReturnType<typeof prepare>>,
  loads: LayoutRun['loads'],
  idleStatementsPerS: number,
): Promise<AllInOneDetail> {
  const child = layout.child!;
  const { setup, todoUser, definition } = prepared;
  const { api } = setup;
  const traced: Traced = async (fn) => {
    await ask(child, 'trace-start');
    const value = await fn();
    const { statements } = await ask<{ statements: string[] }>(child, 'trace-stop');
    return { value, statements };
  };
  const trace = await traceFlow(setup, traced);

  let profile: AllInOneDetail['profile'];
  if (config.profileS > 0) {
    log(`  CPU profile of the platform: 8 clients, ${config.profileS} s (not counted)`);
    let path = '';
    await runFlows(setup, 8, 3, config.profileS, {
      start: () => ask(child, 'profile-start').then(() => undefined),
      end: () => ask<{ path: string }>(child, 'profile-stop').then((r) => void (path = r.path)),
    });
    profile = { ...(await summariseProfile(path)), path };
    log(`  profile written to ${path}`);
  }

  let mixed: MixedFigures | undefined;
  if (config.mixedMinutes > 0) {
    await quiet('the mixed load');
    log(`  mixed load: ${config.mixedClients} clients, ${config.mixedMinutes} minutes`);
    mixed = await runMixed(
      setup,
      config.mixedClients,
      config.mixedMinutes,
      () => residentMb(child.pid!),
      (m) =>
        log(
          `  minute ${m.minute}: ${(m.requests / 60).toFixed(0)} req/s, p99 ${m.p99.toFixed(1)} ms, ` +
            `${m.errors} errors, RSS ${m.rssMb?.toFixed(0) ?? '?'} MB`,
        ),
    );
    if (mixed.firstError) log(`  first error: ${mixed.firstError}`);
  }

  log(`  todo: filling bpm_tasks with ${config.tasks} rows`);
  const fillS = await fillTasks(layout.databaseUrl, {
    tasks: config.tasks,
    definitionId: definition.id,
    definitionKey: definition.key,
    targetUserId: todoUser.id,
    targetPending: config.todoPending,
  });
  const counts = await tableCounts(layout.databaseUrl);
  const plans = await explainTodo(layout.databaseUrl, todoUser.id, config.todoPageSize);
  const todoPath = `/api/v1/bpm/tasks/todo?page=1&page_size=${config.todoPageSize}`;
  const { statements } = await traced(() => api.ok('GET', todoPath, todoUser.token));
  trace.push({ request: `GET ${todoPath} (after the fill)`, statements });
  const todo: TodoFigures[] = [];
  for (const clients of config.todoClients) {
    await quiet(`todo at ${clients} client(s)`);
    log(`  todo: ${clients} client(s), ${config.todoS} s`);
    todo.push(
      await measureTodo(
        layout.gateways[0]!,
        todoUser.token,
        clients,
        config.todoS,
        config.todoPageSize,
        config.todoPending,
      ),
    );
  }

  const scratch = new pg.Client({ connectionString: layout.databaseUrl });
  await scratch.connect();
  // Operation logs (issue 4) may or may not be in the tree under test: count what it wrote.
  const oplogTable = await scratch.query(`SELECT to_regclass('audit_operation_logs') AS t`);
  const operationLogRows =
    oplogTable.rows[0]!.t === null
      ? null
      : Number((await scratch.query('SELECT count(*) AS n FROM audit_operation_logs')).rows[0]!.n);
  await scratch.end();
  return {
    servers: layout,
    loads,
    profile,
    fillS,
    counts,
    plans,
    todo,
    mixed,
    trace,
    operationLogRows,
    idleStatementsPerS,
  };
}

try {
  const server = new pg.Client({ connectionString: baseUrl });
  await server.connect();
  const version = (await server.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v;
  await server.end();

  buildLayouts(config.layouts, log);
  log('pgbench: initialising its scratch database (pgbench -i -s 8)');
  const pgbench = await pgbenchDatabase(baseUrl);
  cleanups.push(() => pgbench.drop());
  const baselines: PgbenchFigures[] = [];
  const runPgbench = async () => {
    await quiet('pgbench');
    log(`pgbench: 8 clients, ${config.durationS} s`);
    baselines.push(await pgbench.measure(8, config.durationS));
  };
  await runPgbench();

  const layouts: LayoutRun[] = [];
  let allInOne: AllInOneDetail | undefined;
  for (const name of config.layouts) {
    log(`layout ${name}: starting`);
    const layout = await startLayout(name, { ...config, log });
    cleanups.push(() => layout.close());
    log(`  up: ${layout.shape}; gateways ${layout.gateways.join(', ')}`);
    const prepared = await prepare(layout);
    cleanups.push(() => prepared.setup.api.close());
    // Background work (job pollers, stream consumers, the operation-log flush) with no requests.
    let idleStatementsPerS = NaN;
    if (layout.child) {
      const before = await ask<ServerStats>(layout.child, 'stats');
      await new Promise((resolve) => setTimeout(resolve, 5000));
      idleStatementsPerS =
        ((await ask<ServerStats>(layout.child, 'stats')).queries - before.queries) / 5;
    }
    const loads = await measureFlows(layout, prepared.setup);
    layouts.push({ ...layout, loads });
    if (name === 'all-in-one')
      allInOne = await allInOneDetail(layout, prepared, loads, idleStatementsPerS);
    await cleanUpLast(2);
  }
  await runPgbench();

  printReport({
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`,
    node: process.version,
    postgres: version.split(' on ')[0]!.replace(/^PostgreSQL /, ''),
    config,
    baselines,
    layouts,
    allInOne,
    noisy,
  });
} finally {
  await cleanUp();
}

/** Runs the last `n` clean-ups now (the layout's client, then the layout). */
async function cleanUpLast(n: number) {
  for (const fn of cleanups.splice(-n).reverse()) await fn();
}
