import {
  createHash,
  createHmac,
  createSecretKey,
  randomUUID,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, ERROR_CODES } from '../errors.js';

/** Who is calling, as forward-auth established it. */
export interface Principal {
  userId: number;
  tenantId: number;
  username: string;
  roles: string[];
  deptId: number | null;
  platformAdmin: boolean;
  /** Deduplicated and sorted; `['*']` for a super admin. */
  permissions: string[];
  sessionId: number;
}

export const MAX_PERMISSION_HEADER_BYTES = 16 * 1024;
/** Signed headers older than this are refused: a captured set cannot be replayed later. */
const MAX_SIGNATURE_AGE_MS = 60_000;
/**
 * How long a service remembers a nonce it accepted. A set is accepted while its timestamp is
 * within MAX_SIGNATURE_AGE_MS of the service's clock either way, so at most twice that after
 * it is first seen: remembered that long, a nonce can never be accepted twice.
 */
export const NONCE_TTL_MS = 2 * MAX_SIGNATURE_AGE_MS;

const HEADER = {
  userId: 'x-auth-user-id',
  tenantId: 'x-auth-tenant-id',
  username: 'x-auth-username',
  roles: 'x-auth-roles',
  deptId: 'x-auth-dept-id',
  platformAdmin: 'x-auth-platform-admin',
  permissions: 'x-auth-permissions',
  sessionId: 'x-auth-session-id',
  clientIp: 'x-auth-client-ip',
  nonce: 'x-auth-nonce',
  timestamp: 'x-auth-timestamp',
  signature: 'x-auth-signature',
} as const;

const PRINCIPAL_HEADERS = [
  HEADER.userId,
  HEADER.tenantId,
  HEADER.username,
  HEADER.roles,
  HEADER.deptId,
  HEADER.platformAdmin,
  HEADER.permissions,
  HEADER.sessionId,
] as const;

/**
 * What the signature binds a header set to: the request id, the method, the URL (normalised
 * path and raw query) and the body the service will answer. A captured set replayed to another
 * route, query, method or body fails verification; a server-generated nonce and the timestamp
 * travel inside the set (the services refuse a nonce they have seen).
 */
export interface SignedTarget {
  requestId: string;
  method: string;
  /** `signedUrlOf` the URL the service receives: normalised path and the query as sent. */
  path: string;
  /**
   * `bodyDigest` of the body bytes as forwarded (of no bytes when there is no body), or
   * UNSIGNED_PAYLOAD for a streamed body.
   */
  bodySha256: string;
}

/**
 * What a signed set carries instead of a body digest when the gateway streams the body (an
 * upload): it says so explicitly, so the signature still states what it covers, and a service
 * accepts it only for the requests it declared streamed; everywhere else the digest it computes
 * never equals this marker, and verification fails.
 */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** SHA-256 of no bytes, hex: the digest of every request without a body (most of them). */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** SHA-256 of a request body, hex: what a signature binds the body with. */
export function bodyDigest(body: Uint8Array): string {
  if (body.length === 0) return EMPTY_BODY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/**
 * The HMAC key of the `X-Auth-*` headers, imported once: given the secret as a string, Node
 * prepares a key from it on every signature (the gateway signs, and a service verifies, one set
 * per request). Both ends make theirs when they are built.
 */
export function signingKeyOf(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/** The signing secret as configured, or the key made from it once (`signingKeyOf`). */
export type SigningKey = string | KeyObject;

/** What the gateway vouches for on a proxied request. */
export interface GatewayContext {
  /** Null on public routes (no forward-auth): only the client address is vouched for. */
  principal: Principal | null;
  /** The client address the gateway established (socket, or its trusted proxies). */
  clientIp: string;
}

/** The permission header value: deduplicated, sorted, `*` alone for a super admin. */
export function normalizePermissions(codes: Iterable<string>): string[] {
  const set = new Set(codes);
  if (set.has('*')) return ['*'];
  return [...set].sort();
}

/** `*` grants everything; `a:b:*` grants every code under `a:b:`. */
export function hasPermission(principal: Pick<Principal, 'permissions'>, code: string): boolean {
  for (const granted of principal.permissions) {
    if (granted === '*' || granted === code) return true;
    if (granted.endsWith(':*') && code.startsWith(granted.slice(0, -1))) return true;
  }
  return false;
}

/** The codes among `codes` the principal does not hold, deduplicated and sorted. */
export function missingPermissions(
  principal: Pick<Principal, 'permissions'>,
  codes: Iterable<string>,
): string[] {
  return [...new Set(codes)].filter((code) => !hasPermission(principal, code)).sort();
}

/**
 * Whether the principal may manage another user (change, disable, delete, set the password or
 * e-mail, sign out): every permission the user holds is one the principal holds too (the rule
 * grants follow), and a platform administrator is managed only by another one.
 */
export function mayManageUser(
  principal: Pick<Principal, 'permissions' | 'platformAdmin'>,
  user: { permissions: readonly string[]; isPlatformAdmin: boolean },
): boolean {
  if (user.isPlatformAdmin && !principal.platformAdmin) return false;
  return missingPermissions(principal, user.permissions).length === 0;
}

/** Removes every client-sent `X-Auth-*` header, whatever its case or number of copies. */
export function stripAuthHeaders(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase().startsWith('x-auth-')) delete headers[name];
  }
}

function sign(secret: SigningKey, target: SignedTarget, values: (string | undefined)[]): string {
  // JSON keeps the fields apart whatever they contain (a path may hold any decoded character).
  return createHmac('sha256', secret)
    .update(
      JSON.stringify([
        target.requestId,
        target.method.toUpperCase(),
        target.path,
        target.bodySha256,
        values,
      ]),
    )
    .digest('hex');
}

function principalValues(p: Principal): string[] {
  return [
    String(p.userId),
    String(p.tenantId),
    encodeURIComponent(p.username),
    p.roles.map(encodeURIComponent).join(','),
    p.deptId === null ? '' : String(p.deptId),
    p.platformAdmin ? 'true' : 'false',
    p.permissions.join(','),
    String(p.sessionId),
  ];
}

/** The headers the gateway injects on a proxied request, bound to its id, method, URL and body. */
export function signedGatewayHeaders(
  context: GatewayContext,
  target: SignedTarget,
  secret: SigningKey,
  now = Date.now(),
  nonce: string = randomUUID(),
): Record<string, string> {
  const { principal } = context;
  const headers: Record<string, string> = {};
  if (principal) {
    const permissions = principal.permissions.join(',');
    if (Buffer.byteLength(permissions) > MAX_PERMISSION_HEADER_BYTES) {
      // Fail closed: a truncated permission list would silently drop grants.
      throw new AppError(ERROR_CODES.FORBIDDEN, 'permission set exceeds the 16 KB header limit');
    }
    principalValues(principal).forEach((value, i) => (headers[PRINCIPAL_HEADERS[i]!] = value));
  }
  headers[HEADER.clientIp] = context.clientIp;
  headers[HEADER.nonce] = nonce;
  headers[HEADER.timestamp] = String(now);
  headers[HEADER.signature] = sign(secret, target, signedValues(headers));
  return headers;
}

/** Every signed header's value, in a fixed order; absent principal headers stay absent. */
function signedValues(headers: Record<string, string | undefined>): (string | undefined)[] {
  return [
    ...PRINCIPAL_HEADERS.map((h) => headers[h]),
    headers[HEADER.clientIp],
    headers[HEADER.nonce],
    headers[HEADER.timestamp],
  ];
}

function one(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** A verified set: what it vouches for, and its nonce (which the caller must not accept twice). */
export interface VerifiedGatewayContext extends GatewayContext {
  nonce: string;
}

/** True when the request carries any `X-Auth-*` header (claims to come through the gateway). */
export function hasGatewayHeaders(headers: IncomingHttpHeaders): boolean {
  return Object.keys(headers).some((h) => h.startsWith('x-auth-'));
}

/**
 * Reads the gateway's `X-Auth-*` headers. None at all → null (not through the gateway). Any
 * with a missing, stale or wrong signature, or signed for another request id, method, URL or
 * body → 401: services trust only the gateway. Whether the nonce was seen before is the
 * caller's check (it needs the shared cache).
 */
export function gatewayContextFromHeaders(
  headers: IncomingHttpHeaders,
  target: SignedTarget,
  secret: SigningKey,
  now = Date.now(),
): VerifiedGatewayContext | null {
  if (!hasGatewayHeaders(headers)) return null;
  const refuse = () => new AppError(ERROR_CODES.UNAUTHENTICATED, 'untrusted identity headers');
  const read: Record<string, string | undefined> = {};
  for (const name of [...PRINCIPAL_HEADERS, HEADER.clientIp, HEADER.nonce, HEADER.timestamp]) {
    read[name] = one(headers, name);
  }
  const signature = one(headers, HEADER.signature);
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) throw refuse();
  if (!read[HEADER.clientIp] || !read[HEADER.nonce] || !read[HEADER.timestamp]) throw refuse();
  const principalParts = PRINCIPAL_HEADERS.map((h) => read[h]);
  const anonymous = principalParts.every((v) => v === undefined);
  if (!anonymous && principalParts.some((v) => v === undefined)) throw refuse();
  const expected = Buffer.from(sign(secret, target, signedValues(read)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw refuse();
  const age = now - Number(read[HEADER.timestamp]);
  if (!Number.isFinite(age) || Math.abs(age) > MAX_SIGNATURE_AGE_MS) throw refuse();
  const clientIp = read[HEADER.clientIp]!;
  const nonce = read[HEADER.nonce]!;
  if (anonymous) return { principal: null, clientIp, nonce };
  const values = principalParts as string[];
  return {
    clientIp,
    nonce,
    principal: {
      userId: Number(values[0]),
      tenantId: Number(values[1]),
      username: decodeURIComponent(values[2]!),
      roles: values[3] === '' ? [] : values[3]!.split(',').map(decodeURIComponent),
      deptId: values[4] === '' ? null : Number(values[4]),
      platformAdmin: values[5] === 'true',
      permissions: values[6] === '' ? [] : values[6]!.split(','),
      sessionId: Number(values[7]),
    },
  };
}
