/**
 * The platform under test for `npm run bench:bpm`, in a child process of bench/bpm-run.ts so the
 * load generator never shares its event loop: all-in-one mode (gateway and services on one
 * event loop, as `npm start` runs it) on a scratch database `approva_bench_<random>` created on
 * the PostgreSQL server of DATABASE_URL and dropped on SIGTERM. Prints one `BENCH_SERVERS` JSON
 * line, then answers the runner's IPC messages:
 *   {type: 'stats'}         -> cumulative database queries, their summed round-trip time, and
 *                              the event loop's cumulative active/idle time;
 *   {type: 'profile-start'} -> starts the V8 CPU profiler;
 *   {type: 'profile-stop'}  -> stops it, writes the .cpuprofile to the temp directory, answers
 *                              with its path;
 *   {type: 'trace-start'}   -> starts recording the text of every statement sent;
 *   {type: 'trace-stop'}    -> stops, answers with the statements recorded.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadSettings } from '../src/start.js';
import { createLogger } from '../src/platform/logging/logger.js';
import { startPlatform } from '../src/start.js';

const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) throw new Error('bench/bpm-servers.ts needs DATABASE_URL (never PGlite)');

const name = `approva_bench_${randomBytes(4).toString('hex')}`;
async function onBase(sql: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
await onBase(`CREATE DATABASE ${name}`);
const scratchUrl = new URL(baseUrl);
scratchUrl.pathname = `/${name}`;

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
  APP_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: '0',
  METRICS_PORT: '0',
  LOGIN_CAPTCHA: 'off',
  DATA_DIR: 'memory://',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
  // The whole run, todo fill included, on the tokens minted at set-up.
  ACCESS_TOKEN_TTL: '3h',
  // One client IP sends everything: the limiter runs on every request, with a budget the load
  // cannot exhaust, so the figures show its cost, not its refusals.
  GATEWAY_RATE_AVERAGE: '10000000',
  GATEWAY_RATE_BURST: '10000000',
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  DATABASE_URL: scratchUrl.toString(),
});

let platform: Awaited<ReturnType<typeof startPlatform>>;
try {
  platform = await startPlatform(settings, createLogger('warn'));
} catch (err) {
  await onBase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  throw err;
}

process.stdout.write(
  `BENCH_SERVERS ${JSON.stringify({
    gateway: platform.url,
    databaseUrl: scratchUrl.toString(),
    database: platform.kernel.database.kind,
    cache: platform.kernel.cache.kind,
    stream: platform.kernel.stream.kind,
    poolSize: settings.database.poolSize,
  })}\n`,
);

const session = new Session();
session.connect();

type Message = { type: 'stats' | 'profile-start' | 'profile-stop' | 'trace-start' | 'trace-stop' };
process.on('message', (message: Message) => {
  void (async () => {
    if (message.type === 'stats') {
      const elu = performance.eventLoopUtilization();
      process.send?.({ type: 'stats', ...counters, active: elu.active, idle: elu.idle });
    } else if (message.type === 'profile-start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      process.send?.({ type: 'profile-start' });
    } else if (message.type === 'profile-stop') {
      const { profile } = await session.post('Profiler.stop');
      await session.post('Profiler.disable');
      const path = join(tmpdir(), `${name}.cpuprofile`);
      await writeFile(path, JSON.stringify(profile));
      process.send?.({ type: 'profile-stop', path });
    } else if (message.type === 'trace-start') {
      trace = [];
      process.send?.({ type: 'trace-start' });
    } else if (message.type === 'trace-stop') {
      process.send?.({ type: 'trace-stop', statements: trace ?? [] });
      trace = undefined;
    }
  })();
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  session.disconnect();
  await platform.close().catch((err: unknown) => console.error('platform.close() failed:', err));
  // pg-pool's end() resolves before its sockets have closed: give them a moment, or the forced
  // drop below terminates them and the pool logs each as a failed idle connection.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await onBase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
