import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { Cache } from '../cache/cache.js';
import { workerGeoLookup } from './geo-worker.js';

/** Loopback, private, link-local, CGNAT and unique-local ranges: all shown as "intranet". */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

export const INTRANET = 'intranet';

/** `::ffff:10.0.0.1` → `10.0.0.1`; anything else unchanged. */
function unmapped(ip: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return match ? match[1]! : ip;
}

export function isPrivateAddress(ip: string): boolean {
  const address = unmapped(ip);
  if (isIPv4(address)) return PRIVATE.check(address, 'ipv4');
  if (isIPv6(address)) return PRIVATE.check(address, 'ipv6');
  return false;
}

export interface GeoLocatorOptions {
  cache: Cache;
  /**
   * Optional online lookup (setting `AUDIT_GEO_ONLINE_URL`, default unset = off): `{ip}` is
   * replaced by the address; the JSON answer's `country`, `regionName`/`region` and `city` are
   * used. Answers are cached for `onlineCacheMs` (default 1 hour, the spec's figure).
   */
  onlineUrl?: string | undefined;
  onlineCacheMs?: number;
  /** Default 1500 ms; a slow or failing service falls back to the offline database. */
  onlineTimeoutMs?: number;
  /**
   * Offline answers kept in process, most recent first (default 10 000 addresses, about 1 MB):
   * fast-geoip reads and parses three JSON files per lookup, and the same addresses sign in
   * again and again. The database does not change while the process runs.
   */
  offlineCacheSize?: number;
  /** The offline lookup; default fast-geoip (GeoLite2 city data shipped in the package). */
  offline?: (ip: string) => Promise<{ country: string; region: string; city: string } | null>;
}

type OfflineLookup = NonNullable<GeoLocatorOptions['offline']>;

/**
 * The offline database: fast-geoip reads small index files per lookup (a few MB of memory)
 * instead of geoip-lite's ~190 MB resident tables; its lookups run in a worker thread, started
 * on first use. IPv4 only.
 */
let offlineLookup: OfflineLookup | undefined;
function defaultOffline(): OfflineLookup {
  offlineLookup ??= workerGeoLookup();
  return offlineLookup;
}

/** "US CA Mountain View"-style text from the parts that are known. */
function describe(parts: Array<string | undefined | null>): string | null {
  return parts.filter((p) => typeof p === 'string' && p.trim() !== '').join(' ') || null;
}

/** Geolocation of login addresses: "intranet" for private ones, else online (if set) or offline. */
export class GeoLocator {
  /** Offline lookups by address, in flight or done (concurrent lookups of one address share one). */
  private readonly offlineMemo = new Map<string, Promise<string | null>>();

  constructor(private readonly options: GeoLocatorOptions) {}

  /** A location text, or null when unknown; never throws. */
  async locate(ip: string | null | undefined): Promise<string | null> {
    if (!ip) return null;
    const address = unmapped(ip);
    if (isPrivateAddress(address)) return INTRANET;
    if (this.options.onlineUrl) {
      const online = await this.online(address).catch(() => null);
      if (online) return online;
    }
    if (!isIPv4(address)) return null;
    const known = this.offlineMemo.get(address);
    if (known) {
      // Most recently used last, so the oldest entry is the first to go.
      this.offlineMemo.delete(address);
      this.offlineMemo.set(address, known);
      return known;
    }
    const located = this.offline(address);
    if (this.offlineMemo.size >= (this.options.offlineCacheSize ?? 10_000)) {
      this.offlineMemo.delete(this.offlineMemo.keys().next().value!);
    }
    this.offlineMemo.set(address, located);
    return located;
  }

  private async offline(address: string): Promise<string | null> {
    try {
      const lookup = this.options.offline ?? defaultOffline();
      const found = await lookup(address);
      return found ? describe([found.country, found.region, found.city]) : null;
    } catch {
      return null;
    }
  }

  private async online(ip: string): Promise<string | null> {
    const key = `audit:geo:${ip}`;
    const cached = await this.options.cache.get(key);
    if (cached !== null) return cached || null;
    const url = this.options.onlineUrl!.replace('{ip}', encodeURIComponent(ip));
    const response = await fetch(url, {
      signal: AbortSignal.timeout(this.options.onlineTimeoutMs ?? 1500),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Record<string, unknown>;
    const text = (key: string) => (typeof body[key] === 'string' ? body[key] : undefined);
    const location = describe([
      text('country'),
      text('regionName') ?? text('region'),
      text('city'),
    ]);
    // An answer without a location is cached too (as ''), so one address costs one call an hour.
    await this.options.cache.set(key, location ?? '', this.options.onlineCacheMs ?? 3_600_000);
    return location;
  }
}
