/**
 * Gateway benchmark: `npm run bench` (add DATABASE_URL/REDIS_URL to run on the real servers).
 * autocannon, 50 connections, a warm-up then a measured run per target, all in one run:
 *   1. GET /api/v1/me through the gateway (forward-auth, header rules, rate limiter, proxy);
 *   2. the same request straight to the auth service with gateway-signed headers;
 *   3. baseline: a bare @fastify/http-proxy hop in front of a Fastify hello-world;
 *   4. reference: the Fastify hello-world called directly.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { signedAuthHeaders } from '../src/platform/auth/principal.js';

const CONNECTIONS = 50;
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(
  name: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<Figures> {
  process.stderr.write(`  ${name}: warm-up ${WARMUP_S}s, run ${DURATION_S}s\n`);
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
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
  // Signed headers are valid for 60 s and bound to one request id: mint them just before the run.
  const direct = () => ({
    'x-request-id': 'bench-direct',
    ...signedAuthHeaders(
      {
        userId: me.data.id,
        tenantId: me.data.tenant_id,
        username: me.data.username,
        roles: me.data.roles,
        deptId: me.data.dept_id,
        platformAdmin: true,
        permissions: me.data.permissions,
        sessionId,
      },
      'bench-direct',
      servers.signingSecret!,
    ),
  });

  const results: Figures[] = [];
  results.push(await load('gateway GET /api/v1/me', `${servers.gateway}/api/v1/me`, bearer));
  results.push(
    await load('auth service GET /api/v1/me (direct)', `${servers.auth}/api/v1/me`, direct()),
  );
  results.push(await load('baseline: bare proxy hop -> hello', `${servers.proxy}/hello`));
  results.push(await load('reference: Fastify hello (direct)', `${servers.hello}/hello`));

  const [gateway, directMe, hop] = results as [Figures, Figures, Figures];
  console.log(
    `\nGateway benchmark, ${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  );
  console.log(
    `database ${servers.database}, cache ${servers.cache}, ${CONNECTIONS} connections, ${DURATION_S}s per target after ${WARMUP_S}s warm-up\n`,
  );
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results)
    console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`);
  const ratio = gateway.rps / hop.rps;
  const addedP50 = gateway.p50 - directMe.p50;
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
