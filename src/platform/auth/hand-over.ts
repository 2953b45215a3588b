import type { IncomingMessage } from 'node:http';
import type { GatewayContext } from './principal.js';

/**
 * What the gateway established for a request it hands to a service in the same process
 * (all-in-one mode) instead of sending it over loopback HTTP: what a signed `X-Auth-*` set
 * carries (the principal, or none on a public route, and the client address), and the body it
 * read whole (the request's own stream is spent).
 */
export interface HandedOver extends GatewayContext {
  body: Buffer;
}

/**
 * The marker on the raw request. A symbol no other module can name: nothing a client sends
 * (header names are strings, bodies are parsed into objects of their own) can produce a
 * property under it, so only code of this process that calls `handOver` can vouch for a
 * request; there is no header to forge or replay, hence no signature and no nonce to check.
 */
const HANDED_OVER = Symbol('approva.handed-over');

type Marked = IncomingMessage & { [HANDED_OVER]?: HandedOver | undefined };

/** Gateway side: vouches for `raw`, which it is about to hand to a service in this process. */
export function handOver(raw: IncomingMessage, context: HandedOver): void {
  (raw as Marked)[HANDED_OVER] = context;
}

/** Service side: what the gateway vouched for, taken once (a second read finds nothing). */
export function takeHandedOver(raw: IncomingMessage): HandedOver | undefined {
  const context = (raw as Marked)[HANDED_OVER];
  if (context) (raw as Marked)[HANDED_OVER] = undefined;
  return context;
}
