import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, ERROR_CODES } from '../http/errors.js';

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

const HEADER = {
  userId: 'x-auth-user-id',
  tenantId: 'x-auth-tenant-id',
  username: 'x-auth-username',
  roles: 'x-auth-roles',
  deptId: 'x-auth-dept-id',
  platformAdmin: 'x-auth-platform-admin',
  permissions: 'x-auth-permissions',
  sessionId: 'x-auth-session-id',
  timestamp: 'x-auth-timestamp',
  signature: 'x-auth-signature',
} as const;

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

/** Removes every client-sent `X-Auth-*` header, whatever its case or number of copies. */
export function stripAuthHeaders(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase().startsWith('x-auth-')) delete headers[name];
  }
}

function sign(secret: string, requestId: string, values: string[]): string {
  return createHmac('sha256', secret)
    .update(`${requestId}\n${values.join('\n')}`)
    .digest('hex');
}

function valuesOf(p: Principal, timestamp: string): string[] {
  return [
    String(p.userId),
    String(p.tenantId),
    encodeURIComponent(p.username),
    p.roles.map(encodeURIComponent).join(','),
    p.deptId === null ? '' : String(p.deptId),
    p.platformAdmin ? 'true' : 'false',
    p.permissions.join(','),
    String(p.sessionId),
    timestamp,
  ];
}

/** The headers the gateway injects for a verified principal, bound to the request id. */
export function signedAuthHeaders(
  principal: Principal,
  requestId: string,
  secret: string,
  now = Date.now(),
): Record<string, string> {
  const permissions = principal.permissions.join(',');
  if (Buffer.byteLength(permissions) > MAX_PERMISSION_HEADER_BYTES) {
    // Fail closed: a truncated permission list would silently drop grants.
    throw new AppError(ERROR_CODES.FORBIDDEN, 'permission set exceeds the 16 KB header limit');
  }
  const timestamp = String(now);
  const values = valuesOf(principal, timestamp);
  return {
    [HEADER.userId]: values[0]!,
    [HEADER.tenantId]: values[1]!,
    [HEADER.username]: values[2]!,
    [HEADER.roles]: values[3]!,
    [HEADER.deptId]: values[4]!,
    [HEADER.platformAdmin]: values[5]!,
    [HEADER.permissions]: values[6]!,
    [HEADER.sessionId]: values[7]!,
    [HEADER.timestamp]: timestamp,
    [HEADER.signature]: sign(secret, requestId, values),
  };
}

function one(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads the gateway's `X-Auth-*` headers. No auth headers → null (anonymous). Any auth header
 * with a missing, stale or wrong signature → 401: services trust only the gateway.
 */
export function principalFromHeaders(
  headers: IncomingHttpHeaders,
  requestId: string,
  secret: string,
  now = Date.now(),
): Principal | null {
  const present = Object.keys(headers).some((h) => h.startsWith('x-auth-'));
  if (!present) return null;
  const refuse = () => new AppError(ERROR_CODES.UNAUTHENTICATED, 'untrusted identity headers');
  const raw = [
    HEADER.userId,
    HEADER.tenantId,
    HEADER.username,
    HEADER.roles,
    HEADER.deptId,
    HEADER.platformAdmin,
    HEADER.permissions,
    HEADER.sessionId,
    HEADER.timestamp,
  ].map((h) => one(headers, h));
  const signature = one(headers, HEADER.signature);
  if (raw.some((v) => v === undefined) || !signature || !/^[0-9a-f]{64}$/.test(signature))
    throw refuse();
  const values = raw as string[];
  const expected = Buffer.from(sign(secret, requestId, values), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw refuse();
  const age = now - Number(values[8]);
  if (!Number.isFinite(age) || Math.abs(age) > MAX_SIGNATURE_AGE_MS) throw refuse();
  return {
    userId: Number(values[0]),
    tenantId: Number(values[1]),
    username: decodeURIComponent(values[2]!),
    roles: values[3] === '' ? [] : values[3]!.split(',').map(decodeURIComponent),
    deptId: values[4] === '' ? null : Number(values[4]),
    platformAdmin: values[5] === 'true',
    permissions: values[6] === '' ? [] : values[6]!.split(','),
    sessionId: Number(values[7]),
  };
}
