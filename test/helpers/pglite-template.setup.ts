import { PGlite } from '@electric-sql/pglite';
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Once per run (and kept between runs, by PGlite version): a dump of a freshly initialised PGlite
 * data directory. Every embedded test platform starts from it (DATA_TEMPLATE) instead of running
 * initdb, which costs seconds of WebAssembly per platform; migrations and the seed still run on
 * each, so each starts exactly as a fresh database would.
 *
 * The dump is kept small, since every platform reads and unpacks it: WAL segments of 1 MB
 * instead of 16, and without the template databases (`template0`, `template1`), which only
 * CREATE DATABASE reads; the platform's database, `postgres`, is as initdb made it. 13 MB
 * instead of 40, and a platform's database opens in about half the time.
 */
const { version } = JSON.parse(
  readFileSync(
    new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
    'utf8',
  ),
) as { version: string };
export const PGLITE_TEMPLATE = join(tmpdir(), `approva-pglite-${version}-small.tar`);

export default async function setup(): Promise<void> {
  if (process.env.DATABASE_URL || existsSync(PGLITE_TEMPLATE)) return;
  const pglite = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'] });
  // One statement at a time: DROP DATABASE refuses to run in a multi-statement string.
  for (const statement of [
    `UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`,
    'DROP DATABASE template0',
    'DROP DATABASE template1',
    'CHECKPOINT',
  ]) {
    await pglite.exec(statement);
  }
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  // Written aside and renamed: a concurrent run never reads half a file.
  const partial = `${PGLITE_TEMPLATE}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, PGLITE_TEMPLATE);
}
