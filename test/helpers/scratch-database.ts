import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh database on the server of `baseUrl` (tests and benchmarks each get their own), and
 * `drop` to remove it again.
 */
export async function createScratchDatabase(baseUrl: string, prefix = 'approva_t') {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
