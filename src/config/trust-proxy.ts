import { isIP } from 'node:net';

/** Fastify's `trustProxy`: off, a hop count, or the proxy addresses/CIDRs to trust. */
export type TrustProxy = false | number | string[];

const MAX_HOPS = 10;

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `GATEWAY_TRUST_PROXY`: `false`/`0`/empty (the socket address is the client), a hop count from
 * 1 to 10, or a comma-separated list of proxy addresses and CIDRs. `true` ("every hop") is
 * refused: it would let any client choose its own address with `X-Forwarded-For`, defeating the
 * per-IP rate limits and the recorded IPs.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | { error: string } {
  const value = (raw ?? '').trim();
  if (value === '' || ['false', '0', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) {
    return {
      error:
        'true would trust every hop (any client could pick its own IP); ' +
        'give a hop count such as 1 or the proxy addresses/CIDRs',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) return { error: `a hop count from 1 to ${MAX_HOPS}` };
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0) {
    return {
      error: `not an address or CIDR: ${bad.map((b) => JSON.stringify(b.slice(0, 60))).join(', ')}`,
    };
  }
  return entries;
}
