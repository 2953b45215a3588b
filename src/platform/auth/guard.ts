import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/server.js';
import { AppError, ERROR_CODES } from '../http/errors.js';
import type { PermissionCode } from './permissions.js';
import { normalizePath } from '../http/request-path.js';
import {
  gatewayContextFromHeaders,
  hasPermission,
  type GatewayContext,
  type Principal,
} from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set from the gateway's signed `X-Auth-*` headers; null for anonymous requests. */
    principal: Principal | null;
  }
}

/** The path a gateway signature covers: normalised, or the raw path when it does not decode. */
export const signedPathOf = (url: string) => normalizePath(url) ?? url.split('?', 1)[0]!;

/**
 * The client address comes from the gateway's signed header set or from the socket, never from
 * a client's `X-Forwarded-For`: the header is removed before anything reads `request.ip`, and
 * set back only to the address the gateway signed (the services trust exactly one hop).
 */
function verifiedContext(request: FastifyRequest, signingSecret: string): GatewayContext | null {
  delete request.raw.headers['x-forwarded-for'];
  const context = gatewayContextFromHeaders(
    request.raw.headers,
    { requestId: request.id, method: request.method, path: signedPathOf(request.url) },
    signingSecret,
  );
  if (context) request.raw.headers['x-forwarded-for'] = context.clientIp;
  return context;
}

/** Verifies the gateway's signed identity headers on every request of a service. */
export function trustGatewayHeaders(app: HttpApp, signingSecret: string): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    request.principal = verifiedContext(request, signingSecret)?.principal ?? null;
  });
}

/**
 * For a service that checks Bearer tokens itself (BPM): only the client address is taken from
 * the gateway's signed set; an unsigned or bad set leaves the socket address.
 */
export function trustGatewayClientIp(app: HttpApp, signingSecret: string): void {
  app.addHook('onRequest', async (request) => {
    try {
      verifiedContext(request, signingSecret);
    } catch {
      delete request.raw.headers['x-forwarded-for'];
    }
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

/**
 * Route pre-handler: the caller must hold `code` (or `*`, or a `prefix:*` grant). Only codes of
 * the catalogue (permissions.ts) are accepted, so a route cannot require a code no role lists.
 */
export function requirePermission(code: PermissionCode) {
  return async (request: FastifyRequest) => assertPermission(principalOf(request), code);
}

/** 40300 unless the principal holds `code`: for a code only some inputs of a route need. */
export function assertPermission(principal: Principal, code: PermissionCode): void {
  if (!hasPermission(principal, code)) {
    throw new AppError(ERROR_CODES.FORBIDDEN, `permission ${code} required`);
  }
}

/** Route pre-handler: platform administrators only. */
export async function requirePlatformAdmin(request: FastifyRequest) {
  if (!principalOf(request).platformAdmin) {
    throw new AppError(ERROR_CODES.FORBIDDEN, 'platform administrator only');
  }
}
