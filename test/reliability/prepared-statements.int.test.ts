import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { DependencyDownError } from '../../src/platform/dependency-errors.js';
import { realServers } from '../helpers/real-servers.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';

// Statements go to PostgreSQL as named prepared statements (parsed once per connection, then
// only the name and the values travel), and a migration that changes what a prepared `*`
// returns costs one 503 on each text, never a connection stuck on the stale plan.

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
const opened: DatabaseHandle[] = [];
const logger = pino({ level: 'silent' });

async function open(preparedStatements: boolean) {
  const handle = await openDatabase({
    url: scratch.url,
    dataDir: 'memory://',
    poolSize: 1,
    preparedStatements,
    connectRetries: 0,
    connectRetryDelayMs: 0,
    logger,
  });
  opened.push(handle);
  return handle;
}

const prepared = async (handle: DatabaseHandle) =>
  (
    await sql<{ name: string; statement: string }>`
      SELECT name, statement FROM pg_prepared_statements ORDER BY statement`.execute(handle.db)
  ).rows;

beforeAll(async () => {
  if (!realServers.database) return;
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
});
afterAll(async () => {
  for (const handle of opened) await handle.close();
  await scratch?.drop();
});

describe.skipIf(!realServers.database)('named prepared statements on PostgreSQL', () => {
  it('prepares a text once per connection and reuses it', async () => {
    const handle = await open(true);
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ n: number }>`SELECT ${n}::int + 1 AS n`.execute(handle.db);
      expect(rows).toEqual([{ n: n + 1 }]);
    }
    const statements = await prepared(handle);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ name: expect.stringMatching(/^approva_\d+$/) });
    expect(statements[0]!.statement).toContain('$1::int + 1');
  });

  it('answers a stale prepared * once as the database unavailable, then prepares it again', async () => {
    const handle = await open(true);
    await handle.withSession((s) => s.query('CREATE TABLE widgets (id int)'));
    await handle.withSession((s) => s.query('INSERT INTO widgets VALUES (1)'));
    const read = () => sql`SELECT * FROM widgets WHERE id = ${1}`.execute(handle.db);
    expect((await read()).rows).toEqual([{ id: 1 }]);
    // A migration of a newer release adds a column while this process runs.
    await handle.withSession((s) => s.query('ALTER TABLE widgets ADD COLUMN colour text'));
    await expect(read()).rejects.toBeInstanceOf(DependencyDownError);
    expect((await read()).rows).toEqual([{ id: 1, colour: null }]);
  });

  it('sends text only with DB_PREPARED_STATEMENTS off', async () => {
    const handle = await open(false);
    await sql`SELECT ${1}::int AS n`.execute(handle.db);
    expect(await prepared(handle)).toEqual([]);
  });
});
