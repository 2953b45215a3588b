import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../platform/auth/guard.js';
import type { Principal } from '../../platform/auth/principal.js';
import { envelopeOf, ok } from '../../platform/http/envelope.js';
import { AppError } from '../../platform/errors.js';
import type { HttpApp } from '../../platform/http/server.js';
import {
  captchaView,
  changePasswordBody,
  loginBody,
  logoutBody,
  refreshBody,
  tokenPair,
  userView,
} from './auth.schema.js';
import type { AuthService, RequestContext } from './auth.service.js';

const tags = ['auth'];
// Public routes declare `security: []`: they skip forward-auth.

/** Who is signing in from where, for the throttle and the login log. */
export function contextOf(request: FastifyRequest): RequestContext {
  const header = (name: string) => {
    const v = request.headers[name];
    return typeof v === 'string' ? v.slice(0, 512) : null;
  };
  return {
    ip: request.ip,
    userAgent: header('user-agent'),
    deviceId: header('x-device-id')?.slice(0, 128) ?? null,
    requestId: request.id,
  };
}

/** A throttled answer (429) names its wait in `data.retry_after_seconds`; sent as `Retry-After`. */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const details =
      err instanceof AppError ? (err.details as { retry_after_seconds?: unknown }) : null;
    if (typeof details?.retry_after_seconds === 'number') {
      reply.header('retry-after', String(details.retry_after_seconds));
    }
    throw err;
  }
}

export function registerAuthRoutes(app: HttpApp, auth: AuthService): void {
  app.get(
    '/api/v1/captcha',
    {
      schema: {
        tags,
        summary: 'A new login captcha (SVG data URL)',
        security: [],
        response: { 200: envelopeOf(captchaView) },
      },
    },
    async () => ok(await auth.captcha()),
  );

  app.post(
    '/api/v1/login',
    {
      schema: {
        tags,
        summary: 'Sign in with a password',
        security: [],
        body: loginBody,
        response: { 200: envelopeOf(tokenPair) },
      },
    },
    async (request, reply) =>
      ok(await withRetryAfter(reply, () => auth.login(request.body, contextOf(request)))),
  );

  app.post(
    '/api/v1/refresh',
    {
      schema: {
        tags,
        summary: 'Rotate a refresh token',
        security: [],
        body: refreshBody,
        response: { 200: envelopeOf(tokenPair) },
      },
    },
    async (request) => ok(await auth.refresh(request.body.refresh_token)),
  );

  app.post(
    '/api/v1/logout',
    {
      schema: {
        tags,
        summary: 'Revoke the current session',
        body: logoutBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await auth.logout(principalOf(request));
      return ok(null);
    },
  );

  app.get(
    '/api/v1/me',
    { schema: { tags, summary: 'The signed-in user', response: { 200: envelopeOf(userView) } } },
    async (request) => ok(await auth.me(principalOf(request))),
  );

  app.post(
    '/api/v1/me/password',
    {
      schema: {
        tags,
        summary: 'Change the own password',
        body: changePasswordBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request, reply) => {
      await withRetryAfter(reply, () =>
        auth.changePassword(
          principalOf(request),
          request.body.old_password,
          request.body.new_password,
          contextOf(request),
        ),
      );
      return ok(null);
    },
  );

  // Forward-auth for the gateway; not under /api/v1, so the gateway never routes it to clients.
  // The principal is the JSON body (the gateway's HttpForwardAuth reads it) and, for an edge
  // whose forward-auth reads only the status and the headers (nginx `auth_request`,
  // deploy/nginx/), the identity's response headers too.
  app.get('/internal/auth/verify', { schema: { hide: true } }, async (request, reply) => {
    const method = String(request.headers['x-forwarded-method'] ?? 'GET');
    const uri = String(request.headers['x-forwarded-uri'] ?? '/');
    const principal = await auth.verify(request.headers.authorization, method, uri.split('?')[0]!);
    reply.headers(identityHeadersOf(principal));
    return ok(principal);
  });
}

/**
 * The verified identity as response headers, for an edge's forward-auth: username and role
 * codes percent-encoded (as in the gateway's signed set), roles comma-separated. Not signed: an
 * edge may inject them only into apps that trust that edge, never into the platform's services.
 */
export function identityHeadersOf(principal: Principal): Record<string, string> {
  return {
    'x-auth-user-id': String(principal.userId),
    'x-auth-tenant-id': String(principal.tenantId),
    'x-auth-username': encodeURIComponent(principal.username),
    'x-auth-roles': principal.roles.map(encodeURIComponent).join(','),
    'x-auth-platform-admin': String(principal.platformAdmin),
  };
}
