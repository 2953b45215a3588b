import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.js';
import { migrate, readMigrations } from './migrator.js';

const logger = pino({ level: 'silent' });
let handle: DatabaseHandle;
let dir: string;

beforeAll(async () => {
  handle = await openDatabase({
    dataDir: 'memory://',
    poolSize: 1,
    connectRetries: 0,
    connectRetryDelayMs: 0,
    logger,
  });
  dir = await mkdtemp(join(tmpdir(), 'approva-migrations-'));
});

afterAll(() => handle.close());

describe('migrator', () => {
  it('applies pending files in order, once', async () => {
    await writeFile(
      join(dir, '0001_first.sql'),
      'CREATE TABLE m_one (id int);\nINSERT INTO m_one VALUES (1);',
    );
    await writeFile(join(dir, '0002_second.sql'), 'ALTER TABLE m_one ADD COLUMN name text;');
    expect(await migrate(handle, logger, await readMigrations(dir))).toBe(2);
    expect(await migrate(handle, logger, await readMigrations(dir))).toBe(0);
    const rows = await sql<{ id: number }>`SELECT id FROM m_one`.execute(handle.db);
    expect(rows.rows).toEqual([{ id: 1 }]);
  });

  it('refuses to start when an applied migration changed, naming the file', async () => {
    const files = await readMigrations(dir);
    files[0] = { ...files[0]!, checksum: 'changed' };
    await expect(migrate(handle, logger, files)).rejects.toThrow(/0001_first\.sql.*changed/);
  });

  it('refuses a database newer than the code', async () => {
    const files = await readMigrations(dir);
    await expect(migrate(handle, logger, files.slice(0, 1))).rejects.toThrow(
      /0002_second\.sql.*newer/,
    );
  });

  it('rolls a failing migration back whole', async () => {
    await writeFile(
      join(dir, '0003_broken.sql'),
      'CREATE TABLE m_half (id int);\nSELECT no_such_function();',
    );
    await expect(migrate(handle, logger, await readMigrations(dir))).rejects.toThrow();
    const exists = await sql<{ t: string | null }>`SELECT to_regclass('m_half')::text AS t`.execute(
      handle.db,
    );
    expect(exists.rows[0]?.t).toBeNull();
  });

  it('refuses badly named files', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'approva-bad-'));
    await writeFile(join(bad, 'init.sql'), 'SELECT 1;');
    await expect(readMigrations(bad)).rejects.toThrow(/NNNN_description/);
  });

  it('ships migrations whose names and order are valid', async () => {
    const shipped = await readMigrations();
    expect(shipped.length).toBeGreaterThan(0);
    expect(shipped.map((m) => m.version)).toEqual(
      [...shipped.map((m) => m.version)].sort((a, b) => a - b),
    );
  });
});
