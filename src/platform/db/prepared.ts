import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { DependencyDownError } from '../dependency-errors.js';

/**
 * Statement texts one pool names at most. The hot paths are met within the first requests and
 * stay named; PostgreSQL keeps each named statement's parse tree (and plans) per connection.
 */
export const MAX_NAMED_STATEMENTS = 300;

/**
 * Texts whose shape follows the data stay unnamed, so they never fill the pool's names: an IN
 * list (`in ($1, $2, …)`) and a multi-row VALUES (`($1, $2), ($3, $4)`). Our own SQL, not
 * client input; linear either way.
 */
const DATA_SHAPED = / in \(\$\d+, |\), \(\$\d+/;

/**
 * SQLSTATEs of a named statement the server no longer has as `pg` remembers it: a migration
 * changed the columns a prepared `*` returns (0A000, "cached plan must not change result type"),
 * or the server lost it (26000, "prepared statement does not exist": `DISCARD ALL`, a pooler).
 */
function isStale(err: unknown): boolean {
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code === '26000') return true;
  return code === '0A000' && typeof message === 'string' && message.startsWith('cached plan');
}

/** The names one pool gives statement texts: stable per text, fresh after a stale one. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private next = 1;

  constructor(private readonly max = MAX_NAMED_STATEMENTS) {}

  /** The text's name, or undefined for a text that stays unnamed. */
  of(text: string, values: readonly unknown[]): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    if (values.length === 0 || this.names.size >= this.max || DATA_SHAPED.test(text)) {
      return undefined;
    }
    const name = `approva_${this.next++}`;
    this.names.set(text, name);
    return name;
  }

  /**
   * Forgets a stale name: the next use prepares the text again under a new one (the old
   * statement stays on the connections that have it, unused, until they close).
   */
  retire(text: string): void {
    this.names.delete(text);
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * A pool for Kysely's PostgresDialect that sends each statement text as a named prepared
 * statement: PostgreSQL parses it once per connection, and `pg` sends only the name and the
 * values from then on (Kysely sends the text every time, and the write statements are long).
 * A stale statement fails once, as a database that is briefly unavailable (503 50300), and its
 * text is prepared afresh.
 */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  // Kysely keeps a connection per client object, so each client has one stable wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const query = (text: string | pg.Submittable, values: unknown[] = []) => {
      if (typeof text !== 'string') return client.query(text);
      const name = names.of(text, values);
      if (!name) return client.query(text, values);
      return client.query({ name, text, values }).catch((err: unknown) => {
        if (!isStale(err)) throw err;
        names.retire(text);
        throw new DependencyDownError('database', err);
      });
    };
    // Kysely's type overloads the two forms (text and values, or a cursor); both pass through.
    return {
      query: query as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}
