import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/server.js';
import { AppError, ERROR_CODES } from '../http/errors.js';
import { hasPermission, principalFromHeaders, type Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set from the gateway's signed `X-Auth-*` headers; null for anonymous requests. */
    principal: Principal | null;
  }
}

/** Verifies the gateway's signed identity headers on every request of a service. */
export function trustGatewayHeaders(app: HttpApp, signingSecret: string): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    request.principal = principalFromHeaders(request.headers, request.id, signingSecret);
  });
}

/** Checks a bearer token and returns its principal (the auth service's verify). */
export type BearerVerifier = (
  authorization: string | undefined,
  method: string,
  path: string,
) => Promise<Principal>;

/**
 * For a service outside forward-auth (BPM): it validates the Bearer token itself on every
 * request except `isPublic` ones; `X-Auth-*` headers are never trusted there.
 */
export function verifyBearerTokens(
  app: HttpApp,
  verify: BearerVerifier,
  isPublic: (path: string) => boolean,
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0]!;
    if (isPublic(path)) return;
    request.principal = await verify(request.headers.authorization, request.method, path);
  });
}

/** The caller, or 401 when the request carries no verified identity. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
  return request.principal;
}

/** Route pre-handler: the caller must hold `code` (or `*`, or a `prefix:*` grant). */
export function requirePermission(code: string) {
  return async (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (!hasPermission(principal, code)) {
      throw new AppError(ERROR_CODES.FORBIDDEN, `permission ${code} required`);
    }
  };
}

/** Route pre-handler: platform administrators only. */
export async function requirePlatformAdmin(request: FastifyRequest) {
  if (!principalOf(request).platformAdmin) {
    throw new AppError(ERROR_CODES.FORBIDDEN, 'platform administrator only');
  }
}
