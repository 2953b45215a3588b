import type { ServiceName } from '../../config/settings.js';
import { normalizePath } from '../../platform/http/request-path.js';

/** One path prefix the gateway proxies, the service behind it, and whether it skips forward-auth. */
export interface GatewayRoute {
  prefix: string;
  service: ServiceName | 'bpm' | 'audit';
  /** Path on the service, when it differs (the bare-path aliases of API.md). */
  rewritePrefix?: string;
  /** Skips forward-auth: sign-in itself, public protocol endpoints, BPM (validates its own JWTs). */
  isPublic?: (path: string) => boolean;
}

const always = () => true;

/**
 * The OAuth2 protocol endpoints are public; client management under it is not. Decided on the
 * path as the service's router would resolve it (decoded, dot-segments and slash runs resolved,
 * case folded), so `%2e%2e`, `//` or `CLIENTS` cannot slip client management past forward-auth;
 * a path that does not decode is not public (fail closed).
 */
export function oauthProtocol(url: string): boolean {
  const path = normalizePath(url)?.toLowerCase();
  if (path === undefined) return false;
  const segments = path.split('/').filter(Boolean);
  const start = segments[0] === 'api' && segments[1] === 'v1' ? 2 : 0;
  return !(segments[start] === 'oauth2' && segments[start + 1] === 'clients');
}

export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  { prefix: '/api/v1/captcha', service: 'auth', isPublic: always },
  { prefix: '/api/v1/login', service: 'auth', isPublic: always },
  { prefix: '/api/v1/refresh', service: 'auth', isPublic: always },
  { prefix: '/api/v1/password', service: 'auth', isPublic: always },
  { prefix: '/api/v1/oauth2', service: 'auth', isPublic: oauthProtocol },
  { prefix: '/api/v1/logout', service: 'auth' },
  { prefix: '/api/v1/me', service: 'auth' },
  { prefix: '/api/v1/sessions', service: 'auth' },
  { prefix: '/api/v1/users', service: 'identity' },
  { prefix: '/api/v1/roles', service: 'identity' },
  { prefix: '/api/v1/departments', service: 'identity' },
  { prefix: '/api/v1/tenants', service: 'identity' },
  { prefix: '/api/v1/permissions', service: 'identity' },
  { prefix: '/api/v1/bpm', service: 'bpm', isPublic: always },
  { prefix: '/api/v1/operation-logs', service: 'audit' },
  { prefix: '/api/v1/login-logs', service: 'audit' },
  { prefix: '/api/v1/logs', service: 'audit' },
  // Bare-path aliases of the /api/v1 paths (API.md).
  { prefix: '/password', service: 'auth', rewritePrefix: '/api/v1/password', isPublic: always },
  { prefix: '/oauth2', service: 'auth', rewritePrefix: '/api/v1/oauth2', isPublic: oauthProtocol },
  {
    prefix: '/.well-known/openid-configuration',
    service: 'auth',
    rewritePrefix: '/api/v1/oauth2/.well-known/openid-configuration',
    isPublic: always,
  },
];
