/**
 * Gateway benchmark: `npm run bench` (add DATABASE_URL/REDIS_URL to run on the real servers).
 * autocannon, 50 connections, a warm-up then a measured run per target, all in one run:
 *   1. GET /api/v1/me through the gateway (forward-auth, header rules, rate limiter, proxy);
 *   2. the same request straight to the auth service with gateway-signed headers;
 *   3. baseline: a bare @fastify/http-proxy hop in front of a Fastify hello-world;
 *   4. reference: the Fastify hello-world called directly.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { bodyDigest, signedGatewayHeaders } from '../src/platform/auth/principal.js';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function median<T>(values: T[], by: (value: T) => number): T {
  return [...values].sort((a, b) => by(a) - by(b))[values.length >> 1]!;
}
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);

/**
 * Latency without load: one request at a time over a kept-alive connection, timed in
 * microseconds (autocannon's percentiles are whole milliseconds, too coarse for a 1 ms budget).
 */
async function sequentialP50(
  url: string,
  headers: () => Record<string, string>,
  count = 3000,
): Promise<number> {
  const pool = new Pool(new URL(url).origin, { connections: 1 });
  const path = new URL(url).pathname;
  const times: number[] = [];
  try {
    for (let i = 0; i < count + 300; i++) {
      const started = performance.now();
      const response = await pool.request({ path, method: 'GET', headers: headers() });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      if (i >= 300) times.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time the servers' process spent per answered request (user + system), µs; NaN: unknown. */
  cpuUs: number;
}

/**
 * CPU time the servers' process has used so far, in ms (user + system, from /proc; NaN where
 * there is none). On a shared machine throughput moves with the neighbours' load; the CPU a
 * request costs moves much less, so it is the steadier figure to compare changes with.
 */
function serversCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

async function load(
  name: string,
  url: string,
  headers: () => Record<string, string>,
  fixedRate?: number,
): Promise<Figures> {
  process.stderr.write(`  ${name}: warm-up ${WARMUP_S}s, run ${DURATION_S}s\n`);
  // Saturation: 50 connections as fast as they go. Fixed rate: 10 connections sharing a steady
  // request rate well below capacity, so latency is the work per request, not queueing.
  const shape = fixedRate
    ? { connections: 10, overallRate: fixedRate }
    : { connections: CONNECTIONS };
  // Headers made per request: a signed set is accepted once.
  const requests = [{ setupRequest: (request: object) => ({ ...request, headers: headers() }) }];
  await autocannon({ url, ...shape, duration: WARMUP_S, requests });
  const cpuBefore = serversCpuMs();
  const r = await autocannon({ url, ...shape, duration: DURATION_S, requests });
  const cpuMs = serversCpuMs() - cpuBefore;
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    cpuUs: Math.round((cpuMs * 1000) / Math.max(1, r.requests.total)),
  };
}

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: process.env,
});
// The servers' own log lines share stdout; the marked line carries the URLs.
const serversLine = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('BENCH_SERVERS ')) resolve(line.slice('BENCH_SERVERS '.length));
    else process.stderr.write(`${line}\n`);
  });
  child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});
const servers = JSON.parse(serversLine) as Record<string, string>;

try {
  process.stderr.write(
    `servers up (database ${servers.database}, cache ${servers.cache}); measuring\n`,
  );
  const login = await fetch(`${servers.gateway}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  const { data } = (await login.json()) as { data: { access_token: string; user: { id: number } } };
  const bearer = { authorization: `Bearer ${data.access_token}` };
  const me = (await (await fetch(`${servers.gateway}/api/v1/me`, { headers: bearer })).json()) as {
    data: {
      id: number;
      tenant_id: number;
      username: string;
      roles: string[];
      dept_id: number | null;
      permissions: string[];
    };
  };
  const sessionId = JSON.parse(
    Buffer.from(data.access_token.split('.')[1]!, 'base64url').toString(),
  ).sid as number;
  // Signed headers are valid for 60 s and bound to one request id, method and path: mint them
  // just before the run.
  // A fresh set (request id and nonce) per request: the service refuses a nonce it has seen.
  const direct = () => {
    const requestId = randomUUID();
    return {
      'x-request-id': requestId,
      ...signedGatewayHeaders(
        {
          clientIp: '127.0.0.1',
          principal: {
            userId: me.data.id,
            tenantId: me.data.tenant_id,
            username: me.data.username,
            roles: me.data.roles,
            deptId: me.data.dept_id,
            platformAdmin: true,
            permissions: me.data.permissions,
            sessionId,
          },
        },
        { requestId, method: 'GET', path: '/api/v1/me', bodySha256: bodyDigest(Buffer.alloc(0)) },
        servers.signingSecret!,
      ),
    };
  };

  const targets: Array<[string, string, () => Record<string, string>]> = [
    ['gateway GET /api/v1/me', `${servers.gateway}/api/v1/me`, () => bearer],
    ['auth service GET /api/v1/me (direct)', `${servers.auth}/api/v1/me`, direct],
    ['baseline: bare proxy hop -> hello', `${servers.proxy}/hello`, () => ({})],
    ['reference: Fastify hello (direct)', `${servers.hello}/hello`, () => ({})],
  ];
  // This VM's throughput drifts between runs: interleave the targets over several rounds and
  // report each target's median round, so every comparison is made under the same conditions.
  const rounds: Figures[][] = targets.map(() => []);
  const latencies: number[][] = targets.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`round ${round} of ${ROUNDS}\n`);
    for (const [i, [name, url, headers]] of targets.entries()) {
      rounds[i]!.push(await load(name, url, headers));
      latencies[i]!.push(await sequentialP50(url, headers));
    }
  }
  const results = rounds.map((figures) => median(figures, (f) => f.rps));
  const [gatewayP50, directP50, hopP50, helloP50] = latencies.map((l) => median(l, (x) => x)) as [
    number,
    number,
    number,
    number,
  ];

  const [gateway, , hop] = results as [Figures, Figures, Figures];
  console.log(
    `\nGateway benchmark, ${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  );
  console.log(
    `database ${servers.database}, cache ${servers.cache}, ${CONNECTIONS} connections, ${DURATION_S}s per target after ${WARMUP_S}s warm-up, median of ${ROUNDS} interleaved rounds\n`,
  );
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | errors | server CPU µs/req |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results)
    console.log(
      `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${Number.isNaN(r.cpuUs) ? '-' : r.cpuUs} |`,
    );
  const ratio = gateway.rps / hop.rps;
  const addedP50 = gatewayP50 - directP50;
  const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
  console.log(
    `\nUnloaded p50 (one request at a time): gateway /me ${us(gatewayP50)}, auth direct /me ${us(directP50)}, bare hop ${us(hopP50)}, hello ${us(helloP50)}`,
  );
  console.log(
    `\ngateway / bare hop throughput: ${ratio.toFixed(2)}x (target >= 0.60x) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `gateway p50 - direct p50: ${addedP50.toFixed(2)} ms (target < 1 ms) ${addedP50 < 1 ? 'MET' : 'NOT MET'}`,
  );
  if (results.some((r) => r.non2xx > 0 || r.errors > 0))
    console.log('WARNING: some requests failed; figures are suspect');
} finally {
  child.kill('SIGTERM');
}
