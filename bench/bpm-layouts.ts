/**
 * The layouts `npm run bench:bpm` measures the flow in (BENCH_BPM_LAYOUTS), each started on its
 * own scratch database on the PostgreSQL server of DATABASE_URL and stopped before the next:
 *   all-in-one  one process, gateway and every service on one event loop (`npm start`), from
 *               bench/bpm-servers.ts;
 *   processes   the production layout from test/topology/topology.ts (the built `dist/`): one
 *               process per service, BENCH_BPM_REPLICAS bpm replicas each behind a gateway of
 *               its own (a gateway takes one URL per service), the load spread over the gateways;
 *   cluster     the all-in-one platform in each of BENCH_BPM_CLUSTER_WORKERS workers of the Node
 *               cluster module, sharing the gateway's port (bench/bpm-servers.ts as the primary).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import buildDist from '../test/topology/build.setup.js';
import { startTopology } from '../test/topology/topology.js';
import { benchPlatformEnv } from './bpm-settings.js';

export const LAYOUT_NAMES = ['all-in-one', 'processes', 'cluster'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/** Parses BENCH_BPM_LAYOUTS; throws on a name it does not know. */
export function parseLayouts(value: string): LayoutName[] {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(LAYOUT_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`BENCH_BPM_LAYOUTS: unknown ${unknown.join(', ')}; known: ${LAYOUT_NAMES}`);
  return names as LayoutName[];
}

export interface LayoutOptions {
  /** bpm replicas, and gateways, of the processes layout. */
  replicas: number;
  /** Workers of the cluster layout. */
  workers: number;
  log: (line: string) => void;
}

export interface RunningLayout {
  name: LayoutName;
  /** What runs, in a few words, for the report. */
  shape: string;
  gateways: string[];
  databaseUrl: string;
  /** Every process of the platform, named for the per-process CPU table. */
  processes: Array<{ name: string; pid: number }>;
  /** Each service's base URL: their /metrics count the statements per request kind. */
  serviceUrls: string[];
  database: string;
  cache: string;
  stream: string;
  /** Connections of each process's database pool. */
  poolSize: number;
  /** bench/bpm-servers.ts (all-in-one, cluster): answers `stats`, and more in all-in-one. */
  child: ChildProcess | undefined;
  close(): Promise<void>;
}

/** Layouts other than all-in-one are several processes on one database: they need a shared cache. */
export function layoutProblem(names: readonly LayoutName[]): string | undefined {
  const several = names.filter((name) => name !== 'all-in-one');
  if (several.length > 0 && !process.env.REDIS_URL)
    return (
      `the ${several.join(' and ')} layout${several.length > 1 ? 's need' : ' needs'} REDIS_URL: ` +
      'several processes on one database share sessions, directory entries and rate limits only ' +
      'through Redis (each would keep its own in memory)'
    );
  if (names.includes('processes') && !process.env.NATS_URL)
    return 'the processes layout needs NATS_URL (the production topology runs on JetStream)';
  return undefined;
}

export function startLayout(name: LayoutName, options: LayoutOptions): Promise<RunningLayout> {
  if (name === 'processes') return startProcesses(options);
  return startServers(name, name === 'cluster' ? options.workers : 0, options.log);
}

/** Sends `type` to bench/bpm-servers.ts and waits for its answer of the same type. */
export function ask<T>(child: ChildProcess, type: string, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${type}`)), timeoutMs);
    const on = (message: { type: string }) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', on);
      resolve(message as T);
    };
    child.on('message', on);
    child.send({ type });
  });
}

async function startServers(
  name: LayoutName,
  workers: number,
  log: (line: string) => void,
): Promise<RunningLayout> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bpm-servers.ts'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_CLUSTER_WORKERS: String(workers) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      if (text.startsWith('BENCH_SERVERS ')) resolve(text.slice('BENCH_SERVERS '.length));
      else log(text);
    });
    child.once('exit', (code) => reject(new Error(`bench/bpm-servers.ts exited with ${code}`)));
  });
  const servers = JSON.parse(line) as {
    gateway: string;
    serviceUrls: string[];
    databaseUrl: string;
    database: string;
    cache: string;
    stream: string;
    poolSize: number;
    pids: number[];
  };
  return {
    name,
    shape:
      workers > 0
        ? `${workers} cluster workers, each the whole platform, and their primary`
        : 'one process: the gateway and every service',
    gateways: [servers.gateway],
    databaseUrl: servers.databaseUrl,
    processes: servers.pids.map((pid, i) => ({
      name: workers === 0 ? 'all-in-one' : i === 0 ? 'primary' : 'worker',
      pid,
    })),
    serviceUrls: servers.serviceUrls,
    database: servers.database,
    cache: servers.cache,
    stream: servers.stream,
    poolSize: servers.poolSize,
    child,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Builds what the layouts run from before any starts: `dist/` for the processes layout. */
export function buildLayouts(names: readonly LayoutName[], log: (line: string) => void) {
  if (!names.includes('processes')) return;
  log('building dist/ for the processes layout (tsc -p tsconfig.build.json)');
  buildDist();
}

async function startProcesses({ replicas }: LayoutOptions): Promise<RunningLayout> {
  const env = benchPlatformEnv();
  const topology = await startTopology({
    replicas: { bpm: replicas },
    gateways: replicas,
    env,
    // A dozen processes loading the platform at once on a small machine take their time.
    readyWithinMs: 180_000,
  });
  const services = topology.processes.filter((p) => p.name !== 'gateway');
  return {
    name: 'processes',
    shape:
      `${topology.processes.length} processes: ${replicas} gateways, ${replicas} bpm replicas ` +
      '(gateway i in front of replica i), one process for each other service',
    gateways: topology.gatewayUrls,
    databaseUrl: topology.databaseUrl,
    processes: topology.processes.map((p) => ({ name: p.name, pid: p.child.pid! })),
    serviceUrls: services.map((p) => `http://127.0.0.1:${p.port}`),
    database: 'postgres',
    cache: 'redis',
    stream: 'jetstream',
    poolSize: Number(env.DB_POOL_SIZE),
    child: undefined,
    close: () => topology.close(),
  };
}

/** The cluster layout's default: one worker per core. */
export const defaultWorkers = () => cpus().length;

/** Statements sent and requests answered per `METHOD route`, summed over the services scraped. */
export type StatementCounts = Map<string, { statements: number; requests: number }>;

/**
 * Reads `db_statements_per_request` (the platform's own histogram: each request's statements,
 * BEGIN and COMMIT included, counted in its async scope, background work excluded) from every
 * service's /metrics.
 */
export async function statementCounts(serviceUrls: readonly string[]): Promise<StatementCounts> {
  const counts: StatementCounts = new Map();
  const pattern = /^db_statements_per_request_(sum|count)\{([^}]*)\} ([\d.e+-]+)$/;
  for (const url of serviceUrls) {
    const text = await fetch(`${url}/metrics`).then((r) => r.text());
    for (const line of text.split('\n')) {
      const match = pattern.exec(line);
      if (!match) continue;
      const labels = Object.fromEntries(
        [...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      const key = `${labels.method} ${labels.route}`;
      const entry = counts.get(key) ?? { statements: 0, requests: 0 };
      if (match[1] === 'sum') entry.statements += Number(match[3]);
      else entry.requests += Number(match[3]);
      counts.set(key, entry);
    }
  }
  return counts;
}

/** Mean statements per request of each kind between two readings. */
export function statementsPerRequest(a: StatementCounts, b: StatementCounts) {
  const mean = new Map<string, number>();
  for (const [key, end] of b) {
    const start = a.get(key) ?? { statements: 0, requests: 0 };
    const requests = end.requests - start.requests;
    if (requests > 0) mean.set(key, (end.statements - start.statements) / requests);
  }
  return mean;
}
