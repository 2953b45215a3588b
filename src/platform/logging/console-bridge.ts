import { format } from 'node:util';
import type { Logger } from 'pino';

// Terminal colour sequences (ESC [ digits/semicolons m), which libraries add when the stream is
// a TTY. A single character class and a fixed tail: linear time.
// eslint-disable-next-line no-control-regex -- matching the ESC character is the point
const COLOUR = /\u001b\[[0-9;]*m/g;

export interface ConsoleMethods {
  log: Console['log'];
  info: Console['info'];
  warn: Console['warn'];
  error: Console['error'];
  debug: Console['debug'];
}

/**
 * Libraries that print with `console` (oidc-provider's runtime and body-parser notices) would put
 * plain text lines into the JSON log stream. The process routes `console` into its logger: one
 * structured line per call, at the matching level, tagged `source: "console"`. Returns the
 * original methods, to put back.
 */
export function routeConsoleTo(logger: Logger, target: Console = console): ConsoleMethods {
  const original: ConsoleMethods = {
    log: target.log,
    info: target.info,
    warn: target.warn,
    error: target.error,
    debug: target.debug,
  };
  const log = logger.child({ source: 'console' });
  const text = (args: unknown[]) => format(...args).replace(COLOUR, '');
  target.log = (...args: unknown[]) => log.info(text(args));
  target.info = (...args: unknown[]) => log.info(text(args));
  target.warn = (...args: unknown[]) => log.warn(text(args));
  target.error = (...args: unknown[]) => log.error(text(args));
  target.debug = (...args: unknown[]) => log.debug(text(args));
  return original;
}
