import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** What a lazy logger and every logger derived from it (`Object.create`) share. */
interface Pending {
  parent: Logger;
  bindings: Bindings;
  made: Logger | undefined;
}

/**
 * Methods on the prototype and one shared state object, so a request's logger costs two small
 * objects and no closures; a logger derived with `Object.create` (the gateway's proxy logger)
 * reaches the same state, hence the same child.
 */
class LazyLogger {
  constructor(private readonly pending: Pending) {}

  private ensureChild(): Logger {
    return (this.pending.made ??= this.pending.parent.child(this.pending.bindings));
  }

  private at(method: Method, args: unknown[]): void {
    // A disabled level is a no-op in pino too: no child for it.
    if (this.pending.made === undefined && !this.pending.parent.isLevelEnabled(method)) return;
    (this.ensureChild()[method] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.pending.made ?? this.pending.parent).level;
  }

  set level(level: string) {
    this.ensureChild().level = level;
  }

  fatal(...args: unknown[]) {
    this.at('fatal', args);
  }
  error(...args: unknown[]) {
    this.at('error', args);
  }
  warn(...args: unknown[]) {
    this.at('warn', args);
  }
  info(...args: unknown[]) {
    this.at('info', args);
  }
  debug(...args: unknown[]) {
    this.at('debug', args);
  }
  trace(...args: unknown[]) {
    this.at('trace', args);
  }
  silent() {}

  child(more: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.ensureChild().child(more, options);
  }
}

/**
 * A request's logger: `parent.child(bindings)` (the request id), made the first time something
 * logs through it at an enabled level. Most requests log nothing, and a pino child made for each
 * one anyway costs a few microseconds and an allocation per request (two with the gateway in
 * front). The lines it writes are the child's, the same as an eagerly made one's.
 */
export function lazyChildLogger(
  parent: Logger,
  bindings: Bindings,
  options: ChildLoggerOptions = {},
): FastifyBaseLogger {
  // A level or serializers of its own (a route's `logLevel`): made at once, as Fastify would.
  if (options.level !== undefined || options.serializers !== undefined) {
    return parent.child(bindings, options);
  }
  return new LazyLogger({ parent, bindings, made: undefined }) as unknown as FastifyBaseLogger;
}
