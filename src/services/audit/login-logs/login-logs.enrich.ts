import UAParser from 'ua-parser-js';

// Geolocation is platform code: the auth service's session list locates addresses the same way.
export {
  GeoLocator,
  INTRANET,
  isPrivateAddress,
  type GeoLocatorOptions,
} from '../../../platform/geo/geo-locator.js';

/** What a login log shows about the client, parsed from its User-Agent header. */
export interface ClientInfo {
  device: string | null;
  os: string | null;
  browser: string | null;
}

/**
 * Parses a User-Agent with ua-parser-js 1.0.x (MIT; the 2.x line is AGPL). `device` is
 * "<vendor> <model>" when known, else the device type, else "Desktop" when an OS or browser was
 * recognised (desktops carry no device token); null when nothing at all was recognised.
 */
export function parseUserAgent(userAgent: string | null | undefined): ClientInfo {
  if (!userAgent) return { device: null, os: null, browser: null };
  const result = new UAParser(userAgent.slice(0, 1024)).getResult();
  const join = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ') || null;
  const os = join(result.os.name, result.os.version);
  const browser = join(result.browser.name, result.browser.major ?? result.browser.version);
  const type = result.device.type;
  const device =
    join(result.device.vendor, result.device.model) ??
    (type ? type[0]!.toUpperCase() + type.slice(1) : os || browser ? 'Desktop' : null);
  return { device, os, browser };
}

/**
 * `parseUserAgent` with a bounded memo of the last `maxEntries` distinct user agents (default
 * 1000): the same few browsers sign in all day, and parsing is the costly part of enrichment.
 */
export function userAgentParser(
  maxEntries = 1000,
): (userAgent: string | null | undefined) => ClientInfo {
  const memo = new Map<string, ClientInfo>();
  return (userAgent) => {
    if (!userAgent) return parseUserAgent(userAgent);
    const known = memo.get(userAgent);
    if (known) return known;
    const parsed = parseUserAgent(userAgent);
    if (memo.size >= maxEntries) memo.delete(memo.keys().next().value!);
    memo.set(userAgent, parsed);
    return parsed;
  };
}
