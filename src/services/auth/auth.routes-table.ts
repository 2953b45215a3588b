import { always, type ServiceRoute } from '../../platform/module.js';
import { normalizePath } from '../../platform/http/request-path.js';

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

/** The gateway routes in front of the auth service. */
export const AUTH_ROUTES: readonly ServiceRoute[] = [
  { prefix: '/api/v1/captcha', isPublic: always },
  { prefix: '/api/v1/login', isPublic: always },
  { prefix: '/api/v1/refresh', isPublic: always },
  { prefix: '/api/v1/password', isPublic: always },
  { prefix: '/api/v1/oauth2', isPublic: oauthProtocol },
  { prefix: '/api/v1/logout' },
  { prefix: '/api/v1/me' },
  { prefix: '/api/v1/sessions' },
  // Bare-path aliases of the /api/v1 paths (API.md).
  { prefix: '/password', rewritePrefix: '/api/v1/password', isPublic: always },
  { prefix: '/oauth2', rewritePrefix: '/api/v1/oauth2', isPublic: oauthProtocol },
  {
    prefix: '/.well-known/openid-configuration',
    rewritePrefix: '/api/v1/oauth2/.well-known/openid-configuration',
    isPublic: always,
  },
];
