import { spawn, type ChildProcess } from 'node:child_process';
import { SERVICE_NAMES, type ServiceName } from '../../src/start.js';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort } from '../helpers/free-port.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { until as untilReached } from '../helpers/until.js';

/**
 * The production layout, as processes: `node dist/main.js migrate`, then every
 * `node dist/main.js serve --service <name>` started at the same moment (no ordering, no
 * waiting between them) on a fresh PostgreSQL database, Redis and NATS JetStream. The
 * commands are the README's ("Production: one service per process").
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const MAIN = 'dist/main.js';

export type ProcessName = 'gateway' | ServiceName;

export interface ServiceProcess {
  name: ProcessName;
  port: number;
  child: ChildProcess;
  /** Everything it printed, for the failure message. */
  output: string[];
  exited: Promise<number | null>;
}

export const JWT_SECRET = 'topology-tests-jwt-secret-0123456789abcdef';
export const INTERNAL_TOKEN = 'internal-Tq7-9vX2-Lm4P-token';

/**
 * Polls `probe` until it returns a value, or fails after `ms`; a probe that throws (a process
 * restarting, a connection refused) counts as not yet.
 */
export function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000) {
  return untilReached(what, () => probe().catch(() => undefined), ms, 100);
}

/** A business back end receiving terminal-state callbacks, counting each event id. */
export async function callbackReceiver() {
  const received: Array<{ eventId: string; body: any }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ eventId: String(req.headers['idempotency-key']), body: JSON.parse(body) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function run(args: string[], env: Record<string, string>, name: ProcessName | 'migrate') {
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 400) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited, name };
}

export interface TopologyOptions {
  /** Replicas per service (default 1 each). */
  replicas?: Partial<Record<Exclude<ProcessName, 'gateway'>, number>>;
  /**
   * Gateways (default 1). A gateway takes one URL per service, so gateway i proxies to replica
   * i of each service (modulo its replicas): a load spread over the gateways reaches every
   * replica.
   */
  gateways?: number;
  /** How long every gateway may take to report every service ready (default 30 s). */
  readyWithinMs?: number;
  /** Settings every process gets on top of the topology's own. */
  env?: Record<string, string>;
}

export interface Topology {
  /** The first gateway's base URL. */
  gatewayUrl: string;
  /** Every gateway's base URL, gateway i's at index i. */
  gatewayUrls: string[];
  databaseUrl: string;
  processes: ServiceProcess[];
  call(method: string, path: string, options?: CallOptions): Promise<{ status: number; body: any }>;
  stop(process: ServiceProcess): Promise<void>;
  /** Starts the same command again on the same port. */
  restart(process: ServiceProcess): ServiceProcess;
  output(): string;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const base = process.env.DATABASE_URL;
  if (!base || !process.env.REDIS_URL || !process.env.NATS_URL) {
    throw new Error('the topology tests need DATABASE_URL, REDIS_URL and NATS_URL');
  }
  const scratch = await createScratchDatabase(base, 'approva_topo');
  const id = randomBytes(4).toString('hex');
  const env: Record<string, string> = {
    APP_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: scratch.url,
    DB_POOL_SIZE: '4',
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: `topo${id}:`,
    NATS_URL: process.env.NATS_URL,
    NATS_STREAM: `TOPO_${id}`,
    NATS_SUBJECT_PREFIX: `topo${id}.`,
    JWT_SECRET,
    GATEWAY_SIGNING_SECRET: randomBytes(32).toString('hex'),
    LOGIN_CAPTCHA: 'off',
    BPM_INTERNAL_TOKEN: INTERNAL_TOKEN,
    SERVICE_HOST: '127.0.0.1',
    ...options.env,
  };
  const processes: ServiceProcess[] = [];
  try {
    const migrate = run(['migrate'], env, 'migrate');
    const code = await migrate.exited;
    if (code !== 0) throw new Error(`migrate exited ${code}: ${migrate.output.join('')}`);

    const plan: Array<{ name: ProcessName; port: number }> = [];
    // Every service of the platform's one list, each in its own process.
    for (const name of SERVICE_NAMES) {
      for (let i = 0; i < (options.replicas?.[name] ?? 1); i++) {
        plan.push({ name, port: await freePort() });
      }
    }
    // Replica `i` of a service (modulo its replicas): every process gets the first replica's
    // address, gateway i replica i's.
    const urlsFor = (i: number) =>
      Object.fromEntries(
        SERVICE_NAMES.map((name) => {
          const replicas = plan.filter((p) => p.name === name);
          const port = replicas[i % replicas.length]!.port;
          return [`${name.toUpperCase()}_SERVICE_URL`, `http://127.0.0.1:${port}`];
        }),
      );
    // Every process gets every service's address, as the README says: the gateway proxies to
    // them, the monitor probes and scrapes them.
    const serviceUrls = urlsFor(0);
    // Each process's command environment, by port (a restart keeps the port).
    const envs = new Map<number, Record<string, string>>();
    for (const { port } of plan)
      envs.set(port, { ...env, ...serviceUrls, SERVICE_PORT: String(port) });
    const gatewayPorts: number[] = [];
    for (let i = 0; i < (options.gateways ?? 1); i++) {
      const port = await freePort();
      gatewayPorts.push(port);
      envs.set(port, {
        ...env,
        ...urlsFor(i),
        HOST: '127.0.0.1',
        PORT: String(port),
        METRICS_PORT: String(await freePort()),
      });
    }
    // All at once: nothing waits for anything; each process must cope with the others racing.
    for (const { name, port } of plan) {
      processes.push({ ...run(['serve', '--service', name], envs.get(port)!, name), name, port });
    }
    for (const port of gatewayPorts) {
      const gateway = run(['serve', '--service', 'gateway'], envs.get(port)!, 'gateway');
      processes.push({ ...gateway, name: 'gateway', port });
    }

    const gatewayUrls = gatewayPorts.map((port) => `http://127.0.0.1:${port}`);
    const gatewayUrl = gatewayUrls[0]!;
    const call: Topology['call'] = async (method, path, o = {}) => {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body };
    };
    const topology: Topology = {
      gatewayUrl,
      gatewayUrls,
      databaseUrl: scratch.url,
      processes,
      call,
      async stop(p) {
        p.child.kill('SIGTERM');
        await p.exited;
      },
      restart(p) {
        const again = run(['serve', '--service', p.name], envs.get(p.port)!, p.name);
        const next = { ...again, name: p.name, port: p.port };
        processes[processes.indexOf(p)] = next;
        return next;
      },
      output: () =>
        processes
          .map((p) => `--- ${p.name}:${p.port}\n${p.output.join('').slice(-4000)}`)
          .join('\n'),
      async close() {
        await Promise.all(
          processes.map(async (p) => {
            if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
            await p.exited;
          }),
        );
        await scratch.drop();
        await deleteStream(env.NATS_URL!, env.NATS_STREAM!);
      },
    };
    const exitedEarly = Promise.race(
      processes.map(async (p) => {
        const code = await p.exited;
        throw new Error(`${p.name} exited (${code}) while starting:\n${p.output.join('')}`);
      }),
    );
    exitedEarly.catch(() => undefined);
    await Promise.race([
      until(
        'every gateway reports every service ready',
        async () => {
          for (const url of gatewayUrls) {
            const ready = await fetch(`${url}/api/v1/health/ready`);
            await ready.body?.cancel();
            if (ready.status !== 200) return undefined;
          }
          return true;
        },
        options.readyWithinMs,
      ),
      exitedEarly,
    ]);
    return topology;
  } catch (err) {
    for (const p of processes) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await scratch.drop();
    throw err;
  }
}

async function deleteStream(url: string, stream: string) {
  const nc = await connect({ servers: url, timeout: 2000 }).catch(() => undefined);
  if (!nc) return;
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(stream).catch(() => undefined);
  } finally {
    await nc.close();
  }
}
