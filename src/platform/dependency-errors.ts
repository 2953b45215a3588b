/**
 * Which failures mean "a dependency is down" (PostgreSQL, Redis, NATS or an upstream service
 * unreachable, reset, timed out, shutting down) rather than a fault of the code: the contract
 * answers those 503 50300, and they are logged as one warning line naming the dependency and the
 * cause instead of an error with a stack. Kept in one place so every service and the gateway
 * classify the same errors the same way.
 */

/** Socket-level codes of Node, undici and the proxy: the peer is gone or never answered. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/**
 * PostgreSQL SQLSTATEs of a server going away or not taking connections: class 08 (connection
 * exception), 57P01-57P03 (administrator or crash shutdown, cannot connect now), 53300 (too many
 * connections).
 */
const POSTGRES_DOWN = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;

/** Messages `pg`, `pg-pool` and `ioredis` raise without a code when the connection is lost. */
const DOWN_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection is closed/,
  /^Command timed out/,
  /Stream isn't writeable/,
  /^Reached the max retries per request limit/,
];

/** A failure of something the process depends on: what it was, and why, in one line. */
export interface DependencyFailure {
  /** `database`, `cache`, `stream`, or the upstream service's name. */
  dependency: string;
  cause: string;
}

/** Marks an error as a dependency's (the cache and stream adapters wrap theirs in this). */
export class DependencyDownError extends Error {
  override name = 'DependencyDownError';

  constructor(
    readonly dependency: string,
    cause: unknown,
  ) {
    super(`${dependency} unavailable: ${causeText(cause)}`, { cause });
  }
}

/** The cause's code and message, once, without a stack. */
export function causeText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code)
    ? `${code} ${err.message}`
    : err.message;
}

/**
 * Classifies `err` (and its causes): a dependency failure, or undefined for anything else.
 * `fallback` names the dependency when the error itself does not (the database for `pg`
 * errors, the upstream for the proxy's).
 */
export function dependencyFailureOf(
  err: unknown,
  fallback = 'database',
): DependencyFailure | undefined {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++) {
    const found = classify(e, fallback);
    if (found) return found;
    e = e.cause;
  }
  return undefined;
}

function classify(e: Error, fallback: string): DependencyFailure | undefined {
  if (e instanceof DependencyDownError) {
    return { dependency: e.dependency, cause: causeText(e.cause) };
  }
  const code = (e as { code?: unknown }).code;
  const down =
    (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_DOWN.test(code))) ||
    e.name === 'MaxRetriesPerRequestError' ||
    DOWN_MESSAGES.some((m) => m.test(e.message));
  return down ? { dependency: fallback, cause: causeText(rootCause(e)) } : undefined;
}

/** The innermost cause: the socket's own words rather than a wrapper's. */
function rootCause(e: Error): Error {
  let root = e;
  for (let depth = 0; root.cause instanceof Error && depth < 5; depth++) root = root.cause;
  return root;
}

/** The part of a pino logger `logSurvived` writes to. */
interface FailureLog {
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

/**
 * Logs a failure the process goes on after: a dependency down (the database restarting) as one
 * warning line naming it and the cause, anything else as an error with its stack.
 */
export function logSurvived(
  log: FailureLog,
  err: unknown,
  fields: Record<string, unknown>,
  msg: string,
  fallback = 'database',
): void {
  const down = dependencyFailureOf(err, fallback);
  if (down) log.warn({ ...fields, ...down }, `${msg}: dependency down`);
  else log.error({ ...fields, err }, msg);
}
