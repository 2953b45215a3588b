import type { IncomingMessage } from 'node:http';

/**
 * How much of a refused (413) body is read and thrown away after the answer. Closing the
 * connection while the client is still sending makes the kernel reset it, and the client then
 * reports EPIPE or ECONNRESET instead of reading the 413; reading the rest lets it read the
 * answer (and keeps the connection usable). Beyond this, or after the time below, the connection
 * is cut: a client cannot keep a socket busy with an endless body.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;
const DISCARD_TIMEOUT_MS = 10_000;

const discarding = new WeakSet<IncomingMessage>();

/**
 * Reads and drops the rest of `raw`'s body, up to `limit` bytes; then cuts the connection. Also
 * for any answer given before the body was read (a 401 at the gateway, a 415): a body left
 * half-read on a keep-alive connection (paused in the proxy's pipe, so Node does not drop it
 * itself) would stall the connection's next request until the keep-alive timeout reset it.
 */
export function discardRestOfBody(raw: IncomingMessage, limit = DISCARD_LIMIT_BYTES): void {
  if (raw.complete || raw.destroyed || discarding.has(raw)) return;
  discarding.add(raw);
  let seen = 0;
  const cut = () => {
    clearTimeout(timer);
    raw.socket?.destroy();
  };
  const timer = setTimeout(cut, DISCARD_TIMEOUT_MS);
  timer.unref();
  // A refused proxy upload was piped into the counting stream that failed: stop feeding it.
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) cut();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}
