/**
 * The platform under test for `npm run bench:bpm`, in a child process of bench/bpm-run.ts so the
 * load generator never shares its event loop: all-in-one mode (gateway and services on one
 * event loop, as `npm start` runs it) on a scratch database `approva_bench_<random>` created on
 * the PostgreSQL server of DATABASE_URL and dropped on SIGTERM. With BENCH_CLUSTER_WORKERS=N
 * this process is a cluster primary instead: N workers each run the whole all-in-one platform,
 * sharing the gateway's port (the primary hands each new connection to the next worker), and
 * the primary relays `stats` to every worker and answers with the sums. Prints one
 * `BENCH_SERVERS` JSON line (the gateway, the pids of every process of the platform, every
 * service's URL), then answers the runner's IPC messages:
 *   {type: 'stats'}         -> cumulative database queries, their summed round-trip time, and
 *                              the event loop's cumulative active/idle time;
 *   {type: 'profile-start'} -> starts the V8 CPU profiler (not under the cluster);
 *   {type: 'profile-stop'}  -> stops it, writes the .cpuprofile to the temp directory, answers
 *                              with its path;
 *   {type: 'trace-start'}   -> starts recording the text of every statement sent (not under
 *                              the cluster);
 *   {type: 'trace-stop'}    -> stops, answers with the statements recorded.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadSettings, startPlatform } from '../src/start.js';
import { createLogger } from '../src/platform/logging/logger.js';
import { benchPlatformEnv } from './bpm-settings.js';

const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) throw new Error('bench/bpm-servers.ts needs DATABASE_URL (never PGlite)');

async function onBase(sql: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Stats {
  queries: number;
  dbMs: number;
  active: number;
  idle: number;
}

/** What a process running the platform reports once it listens. */
interface Ready {
  gateway: string;
  serviceUrls: string[];
  database: string;
  cache: string;
  stream: string;
  poolSize: number;
}

/**
 * Runs the whole platform in this process on `scratchUrl`, counting every statement it sends,
 * and answers `process.send`'s peer (the runner, or the cluster primary); `ready` is told once
 * it listens, `stopped` once it closed.
 */
async function servePlatform(
  scratchUrl: string,
  redisPrefix: string,
  ready: (r: Ready) => void,
  stopped: () => Promise<void>,
) {
  // Every statement the platform sends goes through pg.Client#query (Kysely's PostgresDialect
  // calls it once per statement, BEGIN and COMMIT included): count them and time the round trips.
  const counters = { queries: 0, dbMs: 0 };
  let trace: string[] | undefined;
  type QueryFn = (...args: unknown[]) => unknown;
  const originalQuery = pg.Client.prototype.query as unknown as QueryFn;
  (pg.Client.prototype as unknown as { query: QueryFn }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    counters.queries++;
    if (trace) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      trace.push(String(text).replace(/\s+/g, ' ').trim());
    }
    const started = performance.now();
    const result = originalQuery.apply(this, args);
    if (result instanceof Promise) {
      const done = () => {
        counters.dbMs += performance.now() - started;
      };
      result.then(done, done);
    }
    return result;
  };

  const settings = loadSettings({
    ...process.env,
    ...benchPlatformEnv(),
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
    REDIS_KEY_PREFIX: redisPrefix,
    DATABASE_URL: scratchUrl,
  });
  const platform = await startPlatform(settings, createLogger('warn'));
  ready({
    gateway: platform.url,
    serviceUrls: Object.values(platform.serviceUrls),
    database: platform.kernel.database.kind,
    cache: platform.kernel.cache.kind,
    stream: platform.kernel.stream.kind,
    poolSize: settings.database.poolSize,
  });

  const session = new Session();
  session.connect();
  type Message = {
    type: 'stats' | 'profile-start' | 'profile-stop' | 'trace-start' | 'trace-stop' | 'stop';
  };
  process.on('message', (message: Message) => {
    void (async () => {
      if (message.type === 'stats') {
        const elu = performance.eventLoopUtilization();
        const stats: Stats = { ...counters, active: elu.active, idle: elu.idle };
        process.send?.({ type: 'stats', ...stats });
      } else if (message.type === 'profile-start') {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 500 });
        await session.post('Profiler.start');
        process.send?.({ type: 'profile-start' });
      } else if (message.type === 'profile-stop') {
        const { profile } = await session.post('Profiler.stop');
        await session.post('Profiler.disable');
        const path = join(tmpdir(), `${new URL(scratchUrl).pathname.slice(1)}.cpuprofile`);
        await writeFile(path, JSON.stringify(profile));
        process.send?.({ type: 'profile-stop', path });
      } else if (message.type === 'trace-start') {
        trace = [];
        process.send?.({ type: 'trace-start' });
      } else if (message.type === 'trace-stop') {
        process.send?.({ type: 'trace-stop', statements: trace ?? [] });
        trace = undefined;
      } else if (message.type === 'stop') {
        void stop();
      }
    })();
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    session.disconnect();
    await platform.close().catch((err: unknown) => console.error('platform.close() failed:', err));
    await stopped();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('disconnect', () => void stop());
}

const printReady = (r: Ready & { databaseUrl: string; pids: number[] }) =>
  process.stdout.write(`BENCH_SERVERS ${JSON.stringify(r)}\n`);

/** The primary of BENCH_CLUSTER_WORKERS workers: forks them, relays `stats`, stops them. */
async function runPrimary(workers: number, scratchUrl: string, drop: () => Promise<void>) {
  const forked: Worker[] = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      forked.map(async (worker) => {
        if (worker.isDead()) return;
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.send({ type: 'stop' });
        const timer = setTimeout(() => worker.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await drop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('disconnect', () => void stop());

  const redisPrefix = `bench${randomBytes(3).toString('hex')}:`;
  const ready: Ready[] = [];
  // All at once, as replicas start: the migrator and the seed take their advisory locks.
  await Promise.all(
    Array.from({ length: workers }, () => {
      const worker = cluster.fork({
        BENCH_SCRATCH_URL: scratchUrl,
        BENCH_REDIS_PREFIX: redisPrefix,
      });
      forked.push(worker);
      worker.once('exit', (code) => {
        if (stopping) return;
        console.error(`cluster worker ${worker.process.pid} exited (${code}) while running`);
        void stop().then(() => process.exit(1));
      });
      return new Promise<void>((resolve) => {
        const on = ({ type, ...r }: { type: string } & Ready) => {
          if (type !== 'ready') return;
          worker.off('message', on);
          ready.push(r);
          resolve();
        };
        worker.on('message', on);
      });
    }),
  );
  // Every worker's gateway listens on the one shared port; each has services of its own.
  const gateways = new Set(ready.map((r) => r.gateway));
  if (gateways.size !== 1) throw new Error(`workers listen on ${[...gateways].join(', ')}`);
  printReady({
    ...ready[0]!,
    serviceUrls: ready.flatMap((r) => r.serviceUrls),
    databaseUrl: scratchUrl,
    pids: [process.pid, ...forked.map((w) => w.process.pid!)],
  });

  const ask = (worker: Worker) =>
    new Promise<Stats>((resolve) => {
      const on = (message: { type: string } & Stats) => {
        if (message.type !== 'stats') return;
        worker.off('message', on);
        resolve(message);
      };
      worker.on('message', on);
      worker.send({ type: 'stats' });
    });
  process.on('message', (message: { type: string }) => {
    if (message.type !== 'stats') return;
    void Promise.all(forked.map(ask)).then((all) => {
      const sum = (k: keyof Stats) => all.reduce((a, s) => a + s[k], 0);
      process.send?.({
        type: 'stats',
        queries: sum('queries'),
        dbMs: sum('dbMs'),
        active: sum('active'),
        idle: sum('idle'),
      });
    });
  });
}

if (cluster.isWorker) {
  await servePlatform(
    process.env.BENCH_SCRATCH_URL!,
    process.env.BENCH_REDIS_PREFIX!,
    (r) => process.send?.({ type: 'ready', ...r }),
    async () => undefined,
  );
} else {
  const name = `approva_bench_${randomBytes(4).toString('hex')}`;
  await onBase(`CREATE DATABASE ${name}`);
  const scratchUrl = new URL(baseUrl);
  scratchUrl.pathname = `/${name}`;
  const drop = () => onBase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const workers = Number(process.env.BENCH_CLUSTER_WORKERS || 0);
  try {
    if (workers > 0) await runPrimary(workers, scratchUrl.toString(), drop);
    else
      await servePlatform(
        scratchUrl.toString(),
        `bench${randomBytes(3).toString('hex')}:`,
        (r) => printReady({ ...r, databaseUrl: scratchUrl.toString(), pids: [process.pid] }),
        // pg-pool's end() resolves before its sockets have closed: give them a moment, or the
        // forced drop terminates them and the pool logs each as a failed idle connection.
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await drop();
        },
      );
  } catch (err) {
    await drop();
    throw err;
  }
}
