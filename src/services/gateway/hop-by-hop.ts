import type { IncomingHttpHeaders } from 'node:http';

/**
 * Headers that describe one connection, not the request (RFC 9110 §7.6.1), plus `Expect`, which
 * the gateway has already answered (Node sends the client its `100 Continue`). Forwarded, they
 * break the upstream request (undici refuses `Expect`, `Keep-Alive`, `Upgrade`) or reach the
 * service's connection on the client's behalf (`Proxy-Authorization`, `TE`).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/**
 * The headers to forward: without the hop-by-hop ones, any `Proxy-*` header, and every header
 * the client's `Connection` header names. `connection` is the client's original value (the proxy
 * library removes the header itself before the gateway sees the outgoing set).
 */
export function withoutHopByHopHeaders(
  headers: IncomingHttpHeaders,
  connection: string | string[] | undefined,
): IncomingHttpHeaders {
  const named = new Set(
    [connection ?? []]
      .flat()
      .flatMap((value) => value.split(','))
      .map((token) => token.trim().toLowerCase()),
  );
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower.startsWith('proxy-') || named.has(lower)) continue;
    kept[name] = value;
  }
  return kept;
}
