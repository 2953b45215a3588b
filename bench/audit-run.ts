/**
 * Audit benchmark (issue 4): `DATABASE_URL=postgres://… npm run bench:audit`. Real PostgreSQL
 * only; the servers run in a child process (bench/audit-servers.ts) on a scratch database.
 *   1. GET /api/v1/me through the gateway with the operation-log recorder on and off:
 *      autocannon, 50 connections, warm-up then measured window, interleaved rounds, medians;
 *      then unloaded p50 (one request at a time); dropped entries from the auth service's
 *      /metrics and rows stored in audit_operation_logs against requests answered.
 *   2. CSV export of the business audit log (10 000 then 50 000 rows seeded with one
 *      INSERT … SELECT generate_series) through the gateway, against psql `\copy … TO STDOUT`
 *      of the same rows: wall time and the server process's RSS growth (VmRSS every 50 ms).
 * Report (Markdown) on stdout, progress on stderr.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { Pool } from 'undici';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('bench:audit needs DATABASE_URL (real PostgreSQL; never PGlite)\n');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const SEQUENTIAL = 1000;
const EXPORT_REPEATS = 3;
const PSQL = process.env.PSQL ?? '/usr/bin/psql';

const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadSamples: string[] = [loadavg()];

// ---- the servers -------------------------------------------------------------------------
interface PlatformUrls {
  gateway: string;
  services: Record<'auth' | 'identity' | 'bpm' | 'audit', string>;
}
const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', 'bench/audit-servers.ts'],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  },
);
const childLines = createInterface({ input: child.stdout });
const gcWaiters: Array<() => void> = [];
const serversLine = await new Promise<string>((resolve, reject) => {
  childLines.on('line', (line) => {
    if (line.startsWith('BENCH_SERVERS ')) resolve(line.slice('BENCH_SERVERS '.length));
    else if (line === 'BENCH_GC_DONE') gcWaiters.shift()?.();
    else log(line);
  });
  child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});
const servers = JSON.parse(serversLine) as {
  on: PlatformUrls;
  off: PlatformUrls;
  scratchUrl: string;
  cache: string;
};
const gcChild = () =>
  new Promise<void>((resolve) => {
    gcWaiters.push(resolve);
    child.stdin.write('gc\n');
  });
const rssKb = () => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0);
};

const sql = new pg.Client({ connectionString: servers.scratchUrl });
await sql.connect();

async function login(gateway: string) {
  const response = await fetch(`${gateway}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  const { data } = (await response.json()) as { data: { access_token: string } };
  return { authorization: `Bearer ${data.access_token}` };
}

// ---- part 1: operation-log recorder on vs off ---------------------------------------------
interface Load {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  answered: number;
  failed: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const warm = await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.mean,
    // Every answered request is one entry to record (the warm-up's too).
    answered: warm.requests.total + r.requests.total,
    failed: r.non2xx + r.errors + r.timeouts + warm.non2xx + warm.errors + warm.timeouts,
  };
}

async function sequentialP50(url: string, headers: Record<string, string>) {
  const pool = new Pool(new URL(url).origin, { connections: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < SEQUENTIAL; i++) {
      const started = performance.now();
      const response = await pool.request({ path: new URL(url).pathname, method: 'GET', headers });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      times.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return median(times.slice(100));
}

const storedMe = async () =>
  Number(
    (
      await sql.query<{ n: string }>(
        "SELECT count(*) AS n FROM audit_operation_logs WHERE path = '/api/v1/me'",
      )
    ).rows[0]!.n,
  );

async function droppedTotal(authUrl: string) {
  const text = await (await fetch(`${authUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('audit_operation_logs_dropped_total'))
      total += Number(line.split(' ').at(-1));
  }
  return total;
}

log(`servers up (cache ${servers.cache}); part 1: recorder on/off, ${ROUNDS} rounds`);
const bearerOn = await login(servers.on.gateway);
const bearerOff = await login(servers.off.gateway);
const meBefore = await storedMe();
const modes = [
  { name: 'on', url: `${servers.on.gateway}/api/v1/me`, headers: bearerOn },
  { name: 'off', url: `${servers.off.gateway}/api/v1/me`, headers: bearerOff },
] as const;
const runs: Record<'on' | 'off', Load[]> = { on: [], off: [] };
const unloaded: Record<'on' | 'off', number[]> = { on: [], off: [] };
let answeredOn = 0;
for (let round = 1; round <= ROUNDS; round++) {
  // Alternate which mode goes first, so neither always follows the other's flush.
  const order = round % 2 === 1 ? [...modes] : [...modes].reverse();
  for (const mode of order) {
    log(`  round ${round}/${ROUNDS}, recorder ${mode.name}: ${WARMUP_S}s + ${DURATION_S}s`);
    loadSamples.push(loadavg());
    const figures = await load(mode.url, mode.headers);
    runs[mode.name].push(figures);
    unloaded[mode.name].push(await sequentialP50(mode.url, mode.headers));
    if (mode.name === 'on') answeredOn += figures.answered + SEQUENTIAL;
  }
}
// The recorder flushes every second: wait until the stored count stops moving.
let stored = await storedMe();
for (let still = 0; still < 3;) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const now = await storedMe();
  still = now === stored ? still + 1 : 0;
  stored = now;
}
stored -= meBefore;
const dropped = await droppedTotal(servers.on.services.auth);
const droppedOff = await droppedTotal(servers.off.services.auth);

const byRps = (list: Load[]) => [...list].sort((a, b) => a.rps - b.rps)[list.length >> 1]!;
const on = byRps(runs.on);
const off = byRps(runs.off);
const onP50 = median(runs.on.map((r) => r.p50));
const offP50 = median(runs.off.map((r) => r.p50));
const onMean = median(runs.on.map((r) => r.mean));
const offMean = median(runs.off.map((r) => r.mean));
const onUnloaded = median(unloaded.on);
const offUnloaded = median(unloaded.off);

// ---- part 2: CSV export vs psql \copy -----------------------------------------------------
log('part 2: CSV export vs psql \\copy');
const me = (await (
  await fetch(`${servers.on.gateway}/api/v1/me`, { headers: bearerOn })
).json()) as {
  data: { id: number; tenant_id: number };
};
const tenantId = me.data.tenant_id;

async function seed(from: number, to: number) {
  await sql.query(
    `INSERT INTO audit_business_logs
       (tenant_id, seq, actor_id, actor_name, action, target_type, target_id, before, after,
        summary, prev_hash, hash, created_at)
     SELECT $1, 1000000 + g, $2, 'admin',
            (ARRAY['user.create', 'user.update', 'role.grant', 'tenant.update'])[1 + g % 4],
            'user', (g % 5000)::text,
            jsonb_build_object('username', 'user' || g, 'status', 0, 'roles', jsonb_build_array('viewer')),
            jsonb_build_object('username', 'user' || g, 'status', 1,
                               'roles', jsonb_build_array('viewer', 'editor'),
                               'email', 'user' || g || '@example.com'),
            'Updated user user' || g || ' (status, roles)', md5((g - 1)::text), md5(g::text),
            now() - g * interval '1 second'
     FROM generate_series($3::int, $4::int) AS g`,
    [tenantId, me.data.id, from, to],
  );
  await sql.query('ANALYZE audit_business_logs');
}

interface ExportFigures {
  ms: number;
  rows: number;
  bytes: number;
  rssGrowthMb: number;
}

async function exportOnce(): Promise<ExportFigures> {
  await gcChild();
  const baseline = rssKb();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb());
  }, 50);
  const started = performance.now();
  let bytes = 0;
  let newlines = 0;
  try {
    const response = await fetch(`${servers.on.gateway}/api/v1/logs/audit/export`, {
      headers: bearerOn,
    });
    if (response.status !== 200) throw new Error(`export answered ${response.status}`);
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) newlines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  peak = Math.max(peak, rssKb());
  return { ms, rows: newlines - 1, bytes, rssGrowthMb: (peak - baseline) / 1024 };
}

async function psqlOnce(): Promise<ExportFigures> {
  const query =
    'SELECT id, created_at, actor_id, actor_name, action, target_type, target_id, summary, before, after ' +
    `FROM audit_business_logs WHERE tenant_id = ${tenantId} ORDER BY id DESC LIMIT 50000`;
  const started = performance.now();
  const psql = spawn(
    PSQL,
    ['-X', '-q', '-d', servers.scratchUrl, '-c', `\\copy (${query}) TO STDOUT WITH CSV HEADER`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let bytes = 0;
  let newlines = 0;
  psql.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) newlines++;
  });
  const code = await new Promise<number | null>((resolve) => psql.once('close', resolve));
  if (code !== 0) throw new Error(`psql exited with ${code}`);
  return { ms: performance.now() - started, rows: newlines - 1, bytes, rssGrowthMb: 0 };
}

interface ExportRow {
  seeded: number;
  app: ExportFigures[];
  psql: ExportFigures[];
}
const exports: ExportRow[] = [];
const existing = Number(
  (
    await sql.query<{ n: string }>(
      'SELECT count(*) AS n FROM audit_business_logs WHERE tenant_id = $1',
      [tenantId],
    )
  ).rows[0]!.n,
);
for (const [from, to] of [
  [1, 10_000],
  [10_001, 50_000],
] as const) {
  await seed(from, to);
  log(
    `  ${to} rows seeded; ${EXPORT_REPEATS} exports and ${EXPORT_REPEATS} psql runs, interleaved`,
  );
  const row: ExportRow = { seeded: to, app: [], psql: [] };
  for (let i = 0; i < EXPORT_REPEATS; i++) {
    loadSamples.push(loadavg());
    row.app.push(await exportOnce());
    row.psql.push(await psqlOnce());
  }
  exports.push(row);
}

// ---- report -------------------------------------------------------------------------------
const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET');
const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
console.log(
  `\n## Audit benchmark, ${new Date().toISOString()}\n\n${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; PostgreSQL (scratch database), cache ${servers.cache}. Load average (1/5/15 min) at start and before each phase: ${loadSamples.join('; ')}.\n`,
);
console.log(
  `### 1. GET /api/v1/me through the gateway, operation-log recorder on vs off\n\n${CONNECTIONS} connections, ${DURATION_S}s after ${WARMUP_S}s warm-up, median of ${ROUNDS} interleaved rounds; unloaded p50: ${SEQUENTIAL} requests one at a time (first 100 dropped), median over rounds.\n`,
);
console.log(
  '| recorder | req/s (median) | req/s per round | p50 ms | mean ms | p99 ms | unloaded p50 µs | failed |',
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|');
for (const [name, figures, p50, mean, quiet] of [
  ['on', on, onP50, onMean, onUnloaded],
  ['off', off, offP50, offMean, offUnloaded],
] as const) {
  const all = runs[name];
  console.log(
    `| ${name} | ${figures.rps} | ${all.map((r) => r.rps).join(', ')} | ${p50} | ${mean.toFixed(2)} | ${figures.p99} | ${Math.round(quiet * 1000)} | ${all.reduce((s, r) => s + r.failed, 0)} |`,
  );
}
const ratio = on.rps / off.rps;
console.log(
  `\nOperation logs: ${answeredOn} /api/v1/me requests answered by the "on" platform, ${stored} rows stored (${stored - answeredOn >= 0 ? '+' : ''}${stored - answeredOn}: requests in flight when autocannon stopped are served and recorded but not counted as answered); audit_operation_logs_dropped_total on the auth service: ${dropped} (the "off" platform's: ${droppedOff}).\n`,
);
console.log(
  `- on / off throughput: ${ratio.toFixed(2)}x (target >= 0.80x) ${verdict(ratio >= 0.8)}`,
);
console.log(
  `- p50 under load, on vs off: ${onP50} vs ${offP50} ms, mean ${onMean.toFixed(2)} vs ${offMean.toFixed(2)} ms (${pct(onMean, offMean)}) (target within 5 %) ${verdict(onMean <= offMean * 1.05)}`,
);
console.log(
  `- p50 unloaded, on vs off: ${Math.round(onUnloaded * 1000)} vs ${Math.round(offUnloaded * 1000)} µs (${pct(onUnloaded, offUnloaded)}) (target within 5 %) ${verdict(onUnloaded <= offUnloaded * 1.05)}`,
);
console.log(
  `- dropped logs: ${dropped}, stored ${stored} of ${answeredOn} answered (target zero dropped, none missing) ${verdict(dropped === 0 && stored >= answeredOn)}`,
);

console.log(
  `\n### 2. CSV export of the business audit log vs psql \\copy\n\nRows seeded with INSERT … SELECT generate_series into the admin's tenant (${existing} rows there before); the export is GET /api/v1/logs/audit/export through the gateway (no filter, capped at 50 000 rows); psql runs \`\\copy (SELECT the same columns … ORDER BY id DESC LIMIT 50000) TO STDOUT WITH CSV HEADER\`. ${EXPORT_REPEATS} runs each, interleaved; median time, largest RSS growth (server process VmRSS sampled every 50 ms, after a full GC, against its value just before).\n`,
);
console.log(
  '| rows in tenant | export rows | export ms (median) | export MB | psql rows | psql ms (median) | psql MB | export / psql | RSS growth MB (max; per run) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const row of exports) {
  const appMs = median(row.app.map((r) => r.ms));
  const psqlMs = median(row.psql.map((r) => r.ms));
  console.log(
    `| ${row.seeded + existing} | ${row.app[0]!.rows} | ${Math.round(appMs)} | ${(row.app[0]!.bytes / 1e6).toFixed(1)} | ${row.psql[0]!.rows} | ${Math.round(psqlMs)} | ${(row.psql[0]!.bytes / 1e6).toFixed(1)} | ${(appMs / psqlMs).toFixed(2)}x | ${Math.max(...row.app.map((r) => r.rssGrowthMb)).toFixed(1)}; ${row.app.map((r) => r.rssGrowthMb.toFixed(1)).join(', ')} |`,
  );
}
const [small, large] = exports as [ExportRow, ExportRow];
const largeRatio = median(large.app.map((r) => r.ms)) / median(large.psql.map((r) => r.ms));
const growthSmall = Math.max(...small.app.map((r) => r.rssGrowthMb));
const growthLarge = Math.max(...large.app.map((r) => r.rssGrowthMb));
console.log(
  `\n- export time at 50 000 rows: ${largeRatio.toFixed(2)}x psql (target <= 3x) ${verdict(largeRatio <= 3)}`,
);
console.log(
  `- RSS growth during the 50 000-row export: ${growthLarge.toFixed(1)} MB (target < 50 MB) ${verdict(growthLarge < 50)}`,
);
// "Flat": growth at 50 000 rows no more than the 10 000-row growth plus a small allowance
// (5 MB, the sampling noise of one process) - not five times it.
console.log(
  `- flat as rows grow: ${growthSmall.toFixed(1)} MB at 10 000 rows vs ${growthLarge.toFixed(1)} MB at 50 000 (target: growth does not scale with rows, allowance 5 MB) ${verdict(growthLarge <= growthSmall + 5)}`,
);
console.log('\n### 3. Login-event drain from JetStream: not measured by this runner.');
console.log(`\nLoad average at the end: ${loadavg()}`);

await sql.end();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
