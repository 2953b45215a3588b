import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrator.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import type { IdentityTables } from '../../src/services/identity/identity.tables.js';
import { seedIdentity } from '../../src/services/identity/seed.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';

const logger = createLogger('silent');
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let databases: DatabaseHandle[] = [];

beforeAll(async () => {
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL)
    : undefined;
});
afterAll(async () => {
  for (const database of databases) await database.close();
  await scratch?.drop();
});

describe('seed', () => {
  it('seeds a fresh database once when many processes seed it at the same moment', async () => {
    // One handle per would-be process (separate pools on PostgreSQL); PGlite has one session.
    const count = scratch ? 6 : 1;
    databases = await Promise.all(
      Array.from({ length: count }, () =>
        openDatabase({
          url: scratch?.url,
          dataDir: 'memory://',
          poolSize: 2,
          connectRetries: 3,
          connectRetryDelayMs: 200,
          logger,
        }),
      ),
    );
    await migrate(databases[0]!, logger);
    const dbs = databases.map((d) => d.db.withTables<IdentityTables>());
    await Promise.all(
      [...dbs, ...dbs].map((db) => seedIdentity(db, { production: false }, logger)),
    );
    const [counts] = (
      await sql<{ tenants: number; roles: number; admins: number }>`
        SELECT (SELECT count(*)::int FROM iam_tenants) AS tenants,
               (SELECT count(*)::int FROM iam_roles) AS roles,
               (SELECT count(*)::int FROM iam_users WHERE username = 'admin') AS admins`.execute(
        dbs[0]!,
      )
    ).rows;
    expect(counts).toEqual({ tenants: 1, roles: 1, admins: 1 });
  });
});
