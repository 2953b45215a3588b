import { BlockList, isIP } from 'node:net';

/**
 * Defaults that are fine on a laptop and fatal on a network: the development JWT secret (anyone
 * can mint tokens with it; the gateway signing key and the audit chain key derive from it) and
 * the seeded `admin` / `admin123`.
 */
export interface DefaultsInUse {
  jwtSecret: boolean;
  adminPassword: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an address only this machine can reach: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return LOOPBACK.check(mapped[1]!, 'ipv4');
  const family = isIP(h);
  if (family === 4) return LOOPBACK.check(h, 'ipv4');
  if (family === 6) return LOOPBACK.check(h, 'ipv6');
  return false; // a host name or a wildcard (0.0.0.0, ::) may be reachable from elsewhere
}

/** The settings that name each default in use, for the warning and the refusal. */
export function describeDefaults(defaults: DefaultsInUse): string[] {
  const named: string[] = [];
  if (defaults.jwtSecret) named.push('JWT_SECRET (the development value)');
  if (defaults.adminPassword) named.push('ADMIN_INITIAL_PASSWORD (the seeded admin123)');
  return named;
}

/**
 * The refusal when a development default would be reachable from the network: listening
 * beyond loopback with a default in use is allowed only with an explicit `APP_ENV=development`.
 */
export function exposureProblems(
  defaults: DefaultsInUse,
  hosts: Record<string, string>,
  explicitDevelopment: boolean,
): string[] {
  const named = describeDefaults(defaults);
  if (named.length === 0 || explicitDevelopment) return [];
  const exposed = Object.entries(hosts).filter(([, host]) => !isLoopbackHost(host));
  if (exposed.length === 0) return [];
  const where = exposed.map(([name, host]) => `${name}=${host}`).join(', ');
  return named.map(
    (setting) =>
      `${setting} is in use while listening on ${where} (not loopback): set it, ` +
      'listen on 127.0.0.1, or set APP_ENV=development explicitly',
  );
}
