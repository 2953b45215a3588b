/**
 * Login-event drain benchmark (issue 4, Measure, item 3). Real PostgreSQL and NATS JetStream
 * only: `DATABASE_URL=… NATS_URL=… tsx bench/audit-drain.ts > drain-report.md`.
 *
 * On a scratch database `approva_bench_<random>` (migrated by the project's migrator, dropped at
 * the end) and a scratch JetStream stream `BENCH_<random>` (subjects `bench<random>.auth.>`,
 * deleted at the end), it publishes N login events and measures in the same run:
 *   (a) a bare durable pull consumer that only acknowledges the N messages;
 *   (b) a bare batched insert of N equivalent rows into `audit_login_logs` (unnest, 1 000 rows
 *       a statement, no enrichment);
 *   (c) the project's login-log consumer draining the stream into `audit_login_logs`;
 * then the crash case: the real consumer in a child process, SIGKILLed once about a third is
 * stored, a new one started, and SQL checks that exactly N rows are stored, none twice, none
 * missing. Target: (c) ≥ 0.25 × the slower of (a) and (b), and no loss or duplicate.
 * Settings: `BENCH_DRAIN_EVENTS` (default 50 000), `BENCH_DRAIN_KILL_AT` (fraction stored when
 * the child is killed, default 0.33). Report (Markdown) on stdout, progress on stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { sql } from 'kysely';
import { loadSettings } from '../src/start.js';
import { openKernel, type Kernel } from '../src/platform/kernel.js';
import { createLogger } from '../src/platform/logging/logger.js';
import { durableName } from '../src/platform/stream/jetstream-consumer.js';
import {
  LOGIN_EVENTS,
  LOGIN_LOG_CONSUMER,
  startLoginLogConsumer,
} from '../src/services/audit/login-logs/login-logs.consumer.js';
import { createScratchDatabase } from '../test/helpers/scratch-database.js';

const log = (line: string) => process.stderr.write(`${line}\n`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');

// ---- realistic login events ------------------------------------------------------------------
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 Edg/119.0.2151.97',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.43 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; U; Android 12; zh-cn; M2102J2SC Build/SKQ1.211006.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.127 Mobile Safari/537.36 XiaoMi/MiuiBrowser/17.4.80',
  'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'okhttp/4.12.0',
  'curl/8.4.0',
];
const REASONS = ['wrong_password', 'user_not_found', 'locked', 'captcha_failed', 'disabled'];
const LOGIN_TYPES = ['password', 'password', 'password', 'password', 'github', 'google', 'totp'];

/** Deterministic pseudo-random numbers (mulberry32), so two runs publish the same events. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchEvent {
  event: string;
  payload: Record<string, unknown>;
}

/** N login events of 2 000 users in 20 tenants: 1-3 devices each, 5 000 public addresses, a
 * fifth private, a few IPv6 and missing ones, 15 % failures. */
export function makeLoginEvents(n: number, runId: string): BenchEvent[] {
  const rnd = random(42);
  const pick = <T>(values: readonly T[]) => values[Math.floor(rnd() * values.length)]!;
  const octet = () => 1 + Math.floor(rnd() * 254);
  const publicIps: string[] = [];
  while (publicIps.length < 5000) {
    const first = pick([3, 8, 23, 31, 45, 52, 61, 77, 88, 101, 113, 139, 151, 185, 203, 212]);
    publicIps.push(`${first}.${octet()}.${octet()}.${octet()}`);
  }
  const privateIp = () =>
    pick([`10.${octet()}.${octet()}.${octet()}`, `192.168.${octet()}.${octet()}`, '127.0.0.1']);
  const start = Date.now() - n * 10;
  const events: BenchEvent[] = [];
  for (let i = 0; i < n; i++) {
    const user = Math.floor(rnd() * 2000);
    const success = rnd() >= 0.15;
    const roll = rnd();
    const ip =
      roll < 0.7
        ? pick(publicIps)
        : roll < 0.9
          ? privateIp()
          : roll < 0.95
            ? `2001:db8:${octet().toString(16)}::${octet().toString(16)}`
            : null;
    events.push({
      event: success ? 'auth.login.success' : 'auth.login.failed',
      payload: {
        event: success ? 'auth.login.success' : 'auth.login.failed',
        event_id: `${runId}-${i}`,
        tenant_id: 1 + (user % 20),
        user_id: success || rnd() < 0.7 ? 1000 + user : null,
        username: `user${user}`,
        login_type: pick(LOGIN_TYPES),
        success,
        reason: success ? null : pick(REASONS),
        ip,
        user_agent: rnd() < 0.03 ? null : USER_AGENTS[(user + Math.floor(rnd() * 2)) % 12],
        device_id: rnd() < 0.1 ? null : `dev-${user}-${Math.floor(rnd() * 3)}`,
        session_id: success ? 100_000 + i : null,
        request_id: `req-${i}`,
        occurred_at: new Date(start + i * 10).toISOString(),
      },
    });
  }
  return events;
}

// ---- the platform on scratch resources -------------------------------------------------------
function benchSettings(databaseUrl: string, natsUrl: string, id: string) {
  return loadSettings({
    ...process.env,
    APP_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: 'memory://',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    NATS_STREAM: `BENCH_${id}`,
    NATS_SUBJECT_PREFIX: `bench${id}.`,
  });
}

/** Child mode: the real login-log consumer until SIGTERM (or SIGKILL). */
async function runChild(): Promise<void> {
  const settings = loadSettings({ ...process.env, APP_ENV: 'test', LOG_LEVEL: 'warn' });
  const kernel = await openKernel(settings, createLogger('warn'));
  const consumer = startLoginLogConsumer(kernel, {
    ackWaitMs: Number(process.env.BENCH_DRAIN_ACK_WAIT ?? 5000),
  });
  process.stdout.write('DRAIN_CHILD_READY\n');
  process.on('SIGTERM', () => {
    void consumer
      .stop()
      .then(() => kernel.close())
      .finally(() => process.exit(0));
  });
}

async function countRows(kernel: Kernel): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM audit_login_logs`.execute(kernel.database.db);
  return rows[0]!.n;
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Phase {
  name: string;
  seconds: number;
  perSecond: number;
}

/** Runs the whole benchmark and returns the Markdown section. */
export async function runDrainBench(): Promise<string> {
  const baseUrl = process.env.DATABASE_URL;
  const natsUrl = process.env.NATS_URL;
  if (!baseUrl || !natsUrl) {
    throw new Error('the drain benchmark needs DATABASE_URL and NATS_URL (real servers only)');
  }
  const n = Number(process.env.BENCH_DRAIN_EVENTS ?? 50_000);
  const killAt = Number(process.env.BENCH_DRAIN_KILL_AT ?? 0.33);
  const id = randomBytes(4).toString('hex');
  const loads: string[] = [`start ${loadavg()}`];
  const scratch = await createScratchDatabase(baseUrl, 'approva_bench');
  const settings = benchSettings(scratch.url, natsUrl, id);
  const stream = settings.nats.stream;
  const kernel = await openKernel(settings, createLogger('warn'));
  const nc = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(nc);
  const children: ChildProcess[] = [];
  try {
    const db = kernel.database.db;
    const pgVersion = (
      await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)
    ).rows[0]!.v;

    // ---- publish ----
    const events = makeLoginEvents(n, `ev${id}`);
    log(`publishing ${n} login events to ${stream}`);
    let t0 = performance.now();
    const WINDOW = 256;
    for (let i = 0; i < n; i += WINDOW) {
      await Promise.all(
        events
          .slice(i, i + WINDOW)
          .map((e) => kernel.stream.publish(e.event, e.payload, String(e.payload.event_id))),
      );
    }
    const publishSeconds = (performance.now() - t0) / 1000;
    const info = await jsm.streams.info(stream);
    if (info.state.messages !== n) throw new Error(`stream holds ${info.state.messages}, not ${n}`);
    const phases: Phase[] = [];
    const phase = (name: string, seconds: number) => {
      phases.push({ name, seconds, perSecond: n / seconds });
      log(`${name}: ${seconds.toFixed(2)} s, ${fmt(n / seconds)} msg/s`);
    };

    // ---- (a) bare consume-and-ack ----
    loads.push(`(a) ${loadavg()}`);
    const bare = 'bench_bare';
    await jsm.consumers.add(stream, {
      durable_name: bare,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${settings.nats.subjectPrefix}auth.login.*`,
      ack_wait: 30_000_000_000,
      max_deliver: 5,
    });
    t0 = performance.now();
    const messages = await (
      await jetstream(nc).consumers.get(stream, bare)
    ).consume({
      max_messages: 1000,
    });
    let acked = 0;
    for await (const message of messages) {
      message.ack();
      if (++acked === n) break;
    }
    await nc.flush();
    phase('(a) bare JetStream consume + ack', (performance.now() - t0) / 1000);
    await waitFor(
      'bare acks',
      async () => (await jsm.consumers.info(stream, bare)).num_ack_pending === 0,
    );
    await jsm.consumers.delete(stream, bare);

    // ---- (b) bare batched insert ----
    loads.push(`(b) ${loadavg()}`);
    t0 = performance.now();
    const CHUNK = 1000;
    for (let i = 0; i < n; i += CHUNK) {
      const chunk = events.slice(i, i + CHUNK).map((e) => e.payload);
      const col = <T>(f: (p: Record<string, unknown>) => T) => chunk.map(f);
      await sql`INSERT INTO audit_login_logs (event_id, tenant_id, user_id, username, login_type,
          success, reason, ip, device_id, session_id, created_at)
        SELECT * FROM unnest(${col((p) => `bare-${String(p.event_id)}`)}::text[],
          ${col((p) => p.tenant_id)}::bigint[], ${col((p) => p.user_id)}::bigint[],
          ${col((p) => p.username)}::text[], ${col((p) => p.login_type)}::text[],
          ${col((p) => p.success)}::boolean[], ${col((p) => p.reason)}::text[],
          ${col((p) => p.ip)}::text[], ${col((p) => p.device_id)}::text[],
          ${col((p) => p.session_id)}::bigint[], ${col((p) => p.occurred_at)}::timestamptz[])
        ON CONFLICT (event_id) DO NOTHING`.execute(db);
    }
    phase('(b) bare batched INSERT (unnest, 1 000 rows)', (performance.now() - t0) / 1000);
    if ((await countRows(kernel)) !== n) throw new Error('bare insert stored the wrong count');
    await sql`TRUNCATE audit_login_logs, audit_login_devices`.execute(db);
    await sql`VACUUM ANALYZE audit_login_logs`.execute(db);

    // ---- (c) the real consumer ----
    loads.push(`(c) ${loadavg()}`);
    t0 = performance.now();
    const consumer = startLoginLogConsumer(kernel, { ackWaitMs: 30_000 });
    let lastReport = 0;
    await waitFor('the real drain', async () => {
      if (performance.now() - lastReport > 5000) {
        lastReport = performance.now();
        log(`  real drain: ${consumer.stats.acked} acked`);
      }
      return consumer.stats.acked >= n;
    });
    phase('(c) login-log consumer → audit_login_logs', (performance.now() - t0) / 1000);
    await consumer.stop();
    const realRows = await countRows(kernel);
    const realStats = { ...consumer.stats };

    // ---- crash: SIGKILL a child consumer mid-run ----
    loads.push(`crash ${loadavg()}`);
    for (const event of LOGIN_EVENTS) {
      const name = durableName(LOGIN_LOG_CONSUMER, kernel.stream.subjectOf(event));
      await jsm.consumers.delete(stream, name).catch(() => undefined);
    }
    await sql`TRUNCATE audit_login_logs, audit_login_devices`.execute(db);
    const childEnv = {
      ...process.env,
      DATABASE_URL: scratch.url,
      NATS_URL: natsUrl,
      NATS_STREAM: stream,
      NATS_SUBJECT_PREFIX: settings.nats.subjectPrefix,
      BENCH_DRAIN_ACK_WAIT: '5000',
    };
    const startChild = async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), '--drain-child'],
        { stdio: ['ignore', 'pipe', 'inherit'], env: childEnv },
      );
      children.push(child);
      await new Promise<void>((ready, fail) => {
        child.stdout!.on(
          'data',
          (b: Buffer) => b.toString().includes('DRAIN_CHILD_READY') && ready(),
        );
        child.once('exit', (code) => fail(new Error(`drain child exited with ${code}`)));
      });
      return child;
    };
    let child = await startChild();
    await waitFor('a third stored', async () => (await countRows(kernel)) >= n * killAt);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const atKill = await countRows(kernel);
    const consumerNames = LOGIN_EVENTS.map((e) =>
      durableName(LOGIN_LOG_CONSUMER, kernel.stream.subjectOf(e)),
    );
    const consumerStates = () =>
      Promise.all(consumerNames.map((c) => jsm.consumers.info(stream, c)));
    // Delivered to the killed child and never acknowledged: these come back after the ack wait.
    const inFlight = (await consumerStates()).reduce((sum, s) => sum + s.num_ack_pending, 0);
    log(`  killed the child at ${atKill} rows, ${inFlight} deliveries unacknowledged`);
    t0 = performance.now();
    child = await startChild();
    await waitFor('the resumed drain', async () => {
      if ((await countRows(kernel)) < n) return false;
      const states = await consumerStates();
      return states.every((s) => s.num_pending === 0 && s.num_ack_pending === 0);
    });
    const resumeSeconds = (performance.now() - t0) / 1000;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const check = (
      await sql<{ total: number; distinct_ids: number; missing: number }>`
        SELECT (SELECT count(*)::int FROM audit_login_logs) AS total,
          (SELECT count(DISTINCT event_id)::int FROM audit_login_logs) AS distinct_ids,
          (SELECT count(*)::int FROM generate_series(0, ${n - 1}) i
            WHERE NOT EXISTS (SELECT 1 FROM audit_login_logs
              WHERE event_id = ${`ev${id}-`} || i)) AS missing`.execute(db)
    ).rows[0]!;
    const dead = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM stream_dead_letters`.execute(db)
    ).rows[0]!.n;
    loads.push(`end ${loadavg()}`);

    // ---- report ----
    const [a, b, c] = phases as [Phase, Phase, Phase];
    const slower = Math.min(a.perSecond, b.perSecond);
    const ratio = c.perSecond / slower;
    const crashOk = check.total === n && check.distinct_ids === n && check.missing === 0;
    const cpu = cpus();
    return [
      `### 3. Login-event drain from JetStream (\`bench/audit-drain.ts\`), ${new Date().toISOString()}`,
      '',
      `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; PostgreSQL ${pgVersion} (scratch database), NATS ${nc.info?.version ?? '?'} (scratch stream). Load average (1/5/15 min): ${loads.join('; ')}.`,
      '',
      `${fmt(n)} login events (2 000 users in 20 tenants, 12 user agents, 5 000 public IPv4 addresses, 20 % private, 5 % IPv6, 15 % failures) published in ${publishSeconds.toFixed(1)} s.`,
      '',
      '| path | messages | seconds | messages/s |',
      '| ---- | -------: | ------: | ---------: |',
      ...phases.map(
        (p) => `| ${p.name} | ${fmt(n)} | ${p.seconds.toFixed(2)} | ${fmt(p.perSecond)} |`,
      ),
      '',
      `Real path stats: ${realStats.acked} acked, ${realStats.failed} failed, ${realStats.dead} dead; ${fmt(realRows)} rows stored.`,
      '',
      `- Real drain / slower bare path (${slower === a.perSecond ? '(a)' : '(b)'}): **${ratio.toFixed(2)}×** (target ≥ 0.25×): **${ratio >= 0.25 ? 'MET' : 'NOT MET'}**.`,
      `- Crash: child consumer SIGKILLed at ${fmt(atKill)} rows stored, a new one finished in ${resumeSeconds.toFixed(1)} s (${fmt(inFlight)} deliveries held unacknowledged by the killed one, redelivered after the 5 s ack wait); ${fmt(check.total)} rows, ${fmt(check.distinct_ids)} distinct event ids, ${fmt(check.missing)} missing, ${dead} dead letters: **${crashOk ? 'MET' : 'NOT MET'}** (exactly N, no duplicate, none missing).`,
      '',
    ].join('\n');
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
    await kernel.close().catch(() => undefined);
    await scratch.drop();
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain && process.argv.includes('--drain-child')) {
  await runChild();
} else if (isMain) {
  try {
    process.stdout.write(`${await runDrainBench()}\n`);
  } catch (err) {
    log(`drain benchmark failed: ${err instanceof Error ? err.stack : String(err)}`);
    process.exitCode = 1;
  }
}
