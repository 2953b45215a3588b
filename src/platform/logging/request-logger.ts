import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

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
  let made: Logger | undefined;
  const child = () => (made ??= parent.child(bindings));
  const at = (method: Method) =>
    ((...args: Parameters<Logger['info']>) => {
      // A disabled level is a no-op in pino too: no child for it.
      if (made === undefined && !parent.isLevelEnabled(method)) return;
      child()[method](...args);
    }) as FastifyBaseLogger['info'];
  const logger: FastifyBaseLogger = {
    get level() {
      return (made ?? parent).level;
    },
    set level(level: string) {
      child().level = level;
    },
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => undefined,
    child: (more: Bindings, moreOptions?: ChildLoggerOptions) => child().child(more, moreOptions),
  };
  return logger;
}
