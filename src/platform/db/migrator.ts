import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { DatabaseHandle } from './database.js';

/** `migrations/` at the project root; the same depth from `src/` and from `dist/`. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

// Any constant works; it only has to be the same in every replica.
const MIGRATION_LOCK_KEY = 727_001;

export interface MigrationFile {
  version: number;
  name: string;
  checksum: string;
  text: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: MigrationFile[] = [];
  for (const name of files) {
    const match = /^(\d{4})_[a-z0-9_]+\.sql$/.exec(name);
    if (!match) throw new MigrationError(`migration file name ${name} is not NNNN_description.sql`);
    const text = await readFile(join(dir, name), 'utf8');
    const version = Number(match[1]);
    if (migrations.at(-1)?.version === version) {
      throw new MigrationError(`two migrations share number ${match[1]}`);
    }
    migrations.push({
      version,
      name,
      text,
      checksum: createHash('sha256').update(text).digest('hex'),
    });
  }
  return migrations;
}

/**
 * Applies pending migrations in order, each in its own transaction, under an advisory lock so
 * replicas starting together apply each file once. Refuses to run when an applied file changed
 * or when the database has a migration this code does not know (it is newer than the code).
 */
export async function migrate(
  handle: DatabaseHandle,
  logger: Logger,
  migrations?: MigrationFile[],
): Promise<number> {
  const files = migrations ?? (await readMigrations());
  return handle.withSession(async (session) => {
    await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await session.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const applied = await session.query<{ version: number; name: string; checksum: string }>(
        'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
      );
      const known = new Map(files.map((f) => [f.version, f]));
      for (const row of applied) {
        const file = known.get(row.version);
        if (!file) {
          throw new MigrationError(
            `database has migration ${row.name} that this code does not know: the database is newer than the code`,
          );
        }
        if (file.checksum !== row.checksum) {
          throw new MigrationError(
            `applied migration ${file.name} was changed after it was applied (checksum mismatch); migrations are forward-only: add a new file instead`,
          );
        }
      }
      const done = new Set(applied.map((r) => r.version));
      let count = 0;
      for (const file of files) {
        if (done.has(file.version)) continue;
        // Names are checked against /^\d{4}_[a-z0-9_]+\.sql$/ and checksums are hex: safe to inline.
        const record = `INSERT INTO schema_migrations (version, name, checksum) VALUES (${file.version}, '${file.name}', '${file.checksum}');`;
        await session.runScript(`${file.text}\n;\n${record}`);
        logger.info({ migration: file.name }, 'migration applied');
        count++;
      }
      return count;
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
