import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { contextOf, withRetryAfter } from '../auth.routes.js';
import { tokenPair } from '../auth.schema.js';
import type { LoginType, RequestContext } from '../auth.service.js';
import { asksFor } from '../oauth2/sign-in.js';
import type { ExternalLoginService } from './external.service.js';

const tags = ['auth'];
const providerParams = z.object({ provider: z.string().regex(/^[a-z]{1,16}$/) });
const callbackBody = z.object({
  iss: z.string().max(512).optional(),
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
});
const loginCallbackBody = callbackBody.extend({
  /** A TOTP user's code (or recovery code), posted with the same code and state again. */
  totp_code: z.string().trim().max(32).optional(),
});
const startView = z.object({ authorization_url: z.string(), state: z.string() });
const providersView = z.object({ providers: z.array(z.string()) });
const linksView = z.object({
  links: z.array(
    z.object({
      provider: z.string(),
      email: z.string().nullable(),
      created_at: z.string().nullable(),
    }),
  ),
});

/**
 * The providers the sign-in page offers a button for: the configured ones while
 * OAUTH_LOGIN_ENABLED is on, none otherwise (registered either way, so the console can ask).
 */
export function registerProviderListRoute(app: HttpApp, providers: readonly string[]): void {
  app.get(
    '/api/v1/login/oauth',
    {
      schema: {
        tags,
        summary: 'List the enabled external sign-in providers',
        security: [],
        response: { 200: envelopeOf(providersView) },
      },
    },
    async () => ok({ providers: [...providers] }),
  );
}

export function registerExternalLoginRoutes(
  app: HttpApp,
  external: ExternalLoginService,
  /**
   * Issues the platform session (the token pair of /login) after the user's second factor: the
   * auth service's signInWithProvider.
   */
  signIn: (
    userId: number,
    loginType: LoginType,
    totpCode: string | undefined,
    ctx: RequestContext,
  ) => Promise<z.infer<typeof tokenPair>>,
): void {
  app.get(
    '/api/v1/login/oauth/:provider',
    {
      schema: {
        tags,
        summary: 'Start sign-in with an external provider',
        security: [],
        params: providerParams,
        response: { 200: envelopeOf(startView) },
      },
    },
    async (request) => ok(await external.start(request.params.provider, 'login')),
  );

  app.post(
    '/api/v1/login/oauth/:provider/callback',
    {
      schema: {
        tags,
        summary: 'Finish external sign-in with the code and state the provider returned',
        security: [],
        params: providerParams,
        body: loginCallbackBody,
        response: { 200: envelopeOf(tokenPair) },
      },
    },
    async (request, reply) => {
      const { params, body } = request;
      const who = await external.finishLogin(params.provider, body);
      try {
        return ok(
          await withRetryAfter(reply, () =>
            signIn(who.userId, who.loginType, body.totp_code, contextOf(request)),
          ),
        );
      } catch (err) {
        // A TOTP user owes the code (the answer of /login without one), or may try again after a
        // wrong one, under the sign-in throttle: the state is held for that, the provider is done.
        const owesCode =
          err instanceof AppError &&
          (asksFor(err, 'totp_code') ||
            (body.totp_code !== undefined &&
              (err.code === ERROR_CODES.BAD_CREDENTIALS || err.code === ERROR_CODES.RATE_LIMITED)));
        if (owesCode) await external.holdForSecondFactor(body.state, who);
        throw err;
      }
    },
  );

  app.get(
    '/api/v1/me/oauth',
    {
      schema: {
        tags,
        summary: 'List the external accounts linked to the signed-in user',
        response: { 200: envelopeOf(linksView) },
      },
    },
    async (request) => ok({ links: await external.links(principalOf(request)) }),
  );

  app.delete(
    '/api/v1/me/oauth/:provider',
    {
      schema: {
        tags,
        summary: 'Unlink the signed-in user from a provider',
        params: providerParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await external.unlink(principalOf(request), request.params.provider);
      return ok(null);
    },
  );

  app.post(
    '/api/v1/me/oauth/:provider/link',
    {
      schema: {
        tags,
        summary: 'Start linking an external account to the signed-in user',
        params: providerParams,
        response: { 200: envelopeOf(startView) },
      },
    },
    async (request) =>
      ok(await external.start(request.params.provider, 'link', principalOf(request))),
  );

  app.post(
    '/api/v1/me/oauth/:provider/link/callback',
    {
      schema: {
        tags,
        summary: 'Finish linking with the code and state the provider returned',
        params: providerParams,
        body: callbackBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await external.finishLink(principalOf(request), request.params.provider, request.body);
      return ok(null);
    },
  );
}
