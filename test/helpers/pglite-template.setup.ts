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
 */
const { version } = JSON.parse(
  readFileSync(
    new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
    'utf8',
  ),
) as { version: string };
export const PGLITE_TEMPLATE = join(tmpdir(), `approva-pglite-${version}.tar`);

export default async function setup(): Promise<void> {
  if (process.env.DATABASE_URL || existsSync(PGLITE_TEMPLATE)) return;
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  // Written aside and renamed: a concurrent run never reads half a file.
  const partial = `${PGLITE_TEMPLATE}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, PGLITE_TEMPLATE);
}
