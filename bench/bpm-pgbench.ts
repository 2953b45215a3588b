/**
 * The baseline of `npm run bench:bpm`: pgbench's TPC-B-like script on the same PostgreSQL
 * server, 8 clients, on its own scratch database (`pgbench -i -s 8`), dropped afterwards.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface PgbenchFigures {
  tps: number;
  latencyMs: number;
  transactions: number;
}

async function onServer(baseUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A pgbench database for the whole run: `measure` as often as wanted, then `drop`. */
export async function pgbenchDatabase(baseUrl: string, scale = 8) {
  const name = `approva_bench_pgb_${randomBytes(4).toString('hex')}`;
  await onServer(baseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const conninfo = url.toString();
  const drop = () => onServer(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    await run('pgbench', ['-i', '-q', '-s', String(scale), conninfo]);
  } catch (err) {
    await drop();
    throw err;
  }
  return {
    name,
    async measure(clients: number, seconds: number): Promise<PgbenchFigures> {
      const { stdout } = await run('pgbench', [
        '-c',
        String(clients),
        '-j',
        String(Math.min(clients, 2)),
        '-T',
        String(seconds),
        conninfo,
      ]);
      // PostgreSQL 14+: "(without initial connection time)"; before: "(excluding connections establishing)".
      const tps = stdout.match(
        /tps = ([\d.]+) \((?:without initial connection time|excluding connections establishing)\)/,
      );
      const latency = stdout.match(/latency average = ([\d.]+) ms/);
      const count = stdout.match(/number of transactions actually processed: (\d+)/);
      if (!tps) throw new Error(`cannot read pgbench's output:\n${stdout}`);
      return {
        tps: Number(tps[1]),
        latencyMs: latency ? Number(latency[1]) : NaN,
        transactions: count ? Number(count[1]) : NaN,
      };
    },
    drop,
  };
}
