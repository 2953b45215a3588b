import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Logger } from 'pino';
import { causeText } from '../dependency-errors.js';
import { preparingPool } from './prepared.js';
import { countStatement } from './statements.js';

const INT8_OID = 20;
/** How long a request waits for a new connection to a database that does not answer: then 503. */
const CONNECT_TIMEOUT_MS = 5000;
// Ids are bigint columns; both drivers return them as JSON-safe numbers.
const parseInt8 = (value: string) => Number(value);

/** The database the platform talks to: real PostgreSQL through `pg`, or PGlite in `DATA_DIR`. */
export interface DatabaseHandle {
  readonly kind: 'postgres' | 'pglite';
  // Each service narrows this with `db.withTables<ItsTables>()`; the kernel knows no tables.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  readonly db: Kysely<{}>;
  /** The connection pool's use now (PostgreSQL); PGlite has one connection and no pool. */
  poolUse?(): { open: number; idle: number; waiting: number; max: number };
  /** Runs `fn` on one dedicated connection (session-level locks, multi-statement scripts). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface SqlSession {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs a multi-statement SQL script in one transaction. */
  runScript(text: string): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; unset means embedded PGlite. */
  url?: string | undefined;
  /** PGlite directory, or `memory://` for a throw-away database (tests). Default `./data`. */
  dataDir: string;
  /**
   * A PGlite data-directory dump (tar) a throw-away database starts from instead of running
   * initdb (seconds of WebAssembly per start): DATA_TEMPLATE.
   */
  template?: string | undefined;
  poolSize: number;
  /**
   * Send statements as named prepared statements (DB_PREPARED_STATEMENTS, default on): off for a
   * pooler that cannot keep them, such as PgBouncer in transaction mode before 1.21.
   */
  preparedStatements?: boolean;
  connectRetries: number;
  connectRetryDelayMs: number;
  logger: Logger;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url
    ? openPostgres(options.url, options)
    : openPglite(options.dataDir, options.template);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  listenForConnectionErrors(pool, options.logger, 'database connection lost');
  await waitForDatabase(pool, options);
  return {
    kind: 'postgres',
    db: new Kysely({
      dialect: new PostgresDialect({
        pool: options.preparedStatements === false ? pool : preparingPool(pool),
      }),
      log: countStatement,
    }),
    poolUse: () => ({
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolSize,
    }),
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (text, params) => (await client.query(text, params)).rows,
          async runScript(text) {
            try {
              // No parameters: pg uses the simple protocol, which accepts several statements.
              await client.query(`BEGIN;\n${text}\n;COMMIT;`);
            } catch (err) {
              await client.query('ROLLBACK').catch(() => undefined);
              throw err;
            }
          },
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * A connection PostgreSQL drops (a restart, a failover, `pg_terminate_backend`) makes `pg` emit
 * 'error': on the pool while the client is idle, on the client itself while it is checked out.
 * Unheard, the second is an uncaught exception that ends the process. Every client gets a
 * listener for its whole life; the query in flight fails on its own (answered 503), and the pool
 * discards the broken client when it is released, so the process recovers by itself.
 */
export function listenForConnectionErrors(pool: pg.Pool, logger: Logger, message: string) {
  const warn = (err: Error) => logger.warn({ cause: causeText(err) }, message);
  pool.on('connect', (client) => client.on('error', warn));
  // The pool re-emits an idle client's error, which the client's own listener already logged.
  pool.on('error', () => undefined);
}

async function waitForDatabase(pool: pg.Pool, options: DatabaseOptions): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      if (attempt >= options.connectRetries) throw err;
      options.logger.warn(
        { attempt: attempt + 1, of: options.connectRetries, err: (err as Error).message },
        'database not reachable yet, retrying',
      );
      await new Promise((r) => setTimeout(r, options.connectRetryDelayMs));
    }
  }
}

// Node's global; the type libraries this project uses (ES2023, node) leave it out.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };
let pgliteModule: Promise<object> | undefined;

/**
 * PGlite's WebAssembly, compiled once per process: each PGlite otherwise compiles its own, a large
 * part of opening one (which a test worker does for every file).
 */
function compiledPglite() {
  pgliteModule ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return WebAssembly.compile(await readFile(new URL('pglite.wasm', pathToFileURL(entry))));
  })();
  return pgliteModule;
}

const templates = new Map<string, Promise<Blob>>();

/** A template dump read once per process (a test worker opens a database from it per file). */
function templateBlob(path: string): Promise<Blob> {
  let blob = templates.get(path);
  if (!blob) {
    blob = readFile(path).then((bytes) => new Blob([bytes]));
    // A failed read is not kept: the next start reads again.
    blob.catch(() => templates.delete(path));
    templates.set(path, blob);
  }
  return blob;
}

async function openPglite(dataDir: string, template?: string): Promise<DatabaseHandle> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, {
    pgliteWasmModule: await compiledPglite(),
    parsers: { [INT8_OID]: parseInt8 },
    ...(template && { loadDataDir: await templateBlob(template) }),
  });
  const db = new Kysely<object>({ dialect: new PGliteDialect(pglite), log: countStatement });
  return {
    kind: 'pglite',
    db,
    withSession(fn) {
      // Holding Kysely's only connection keeps other work from interleaving with the session.
      return db.connection().execute(() =>
        fn({
          query: async (text, params) => (await pglite.query(text, params)).rows as never[],
          async runScript(text) {
            await pglite.exec('BEGIN');
            try {
              await pglite.exec(text);
              await pglite.exec('COMMIT');
            } catch (err) {
              await pglite.exec('ROLLBACK');
              throw err;
            }
          },
        }),
      );
    },
    close: () => db.destroy(),
  };
}
