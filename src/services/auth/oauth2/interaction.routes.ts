import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { InteractionResults } from 'oidc-provider';
import { z } from 'zod';
import type { Cache } from '../../../platform/cache/cache.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { contextOf } from '../auth.routes.js';
import type { CaptchaMode } from '../captcha.js';
import {
  consentPage,
  errorPage,
  passwordChangePage,
  signInPage,
  totpPage,
  type PageCaptcha,
} from './interaction.pages.js';
import type { OAuthServer } from './oauth2.server.js';
import { OAUTH_PREFIX } from './provider.js';
import { signInStep, type SignInCore, type SignInStep } from './sign-in.js';

const FORM_LIMIT = 16 * 1024;
const uidParams = z.object({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
const signInForm = z.object({
  username: z.string().trim().min(1).max(128),
  password: z.string().min(1).max(256),
  tenant_code: z.string().trim().max(64).optional(),
  captcha_id: z.string().max(64).optional(),
  captcha: z.string().max(16).optional(),
});
const totpForm = z.object({ totp_code: z.string().trim().max(32) });

export interface InteractionDeps {
  server: OAuthServer;
  /** The sign-in core of `POST /api/v1/login` (the auth service): the same checks and counts. */
  auth: SignInCore;
  /** Holds a sign-in between its password step and its TOTP step. */
  cache: Cache;
  /** LOGIN_CAPTCHA: `always` shows the captcha on the first page already. */
  captchaMode: CaptchaMode;
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'",
    )
    .send(body);
}

/**
 * The sign-in and consent pages oidc-provider sends the browser to. The interaction is bound to
 * the browser by the provider's SameSite cookie and the uid in the path; posts from another
 * origin are refused as well.
 */
export function registerInteractionRoutes(app: HttpApp, deps: InteractionDeps): void {
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const details = async (request: FastifyRequest, reply: FastifyReply, uid: string) => {
      const provider = deps.server.current;
      if (!provider)
        return { error: html(reply, 503, errorPage('The sign-in service is not available.')) };
      try {
        const found = await provider.interactionDetails(request.raw, reply.raw);
        if (found.uid !== uid) throw new Error('uid mismatch');
        const client = await provider.Client.find(String(found.params.client_id));
        return {
          provider,
          found,
          clientName: client?.clientName ?? String(found.params.client_id),
        };
      } catch {
        return {
          error: html(
            reply,
            400,
            errorPage(
              'This sign-in request has expired or is not valid. Start again from the application.',
            ),
          ),
        };
      }
    };

    // Browsers send Origin on form posts; one that is not the issuer's (or "null") is refused.
    const crossOrigin = (request: FastifyRequest) => {
      const origin = request.headers.origin;
      return origin !== undefined && origin !== deps.server.origin;
    };

    /** The preamble of every form post: same origin, then the interaction it belongs to. */
    const posted = async (request: FastifyRequest, reply: FastifyReply, uid: string) => {
      if (crossOrigin(request)) {
        return { error: html(reply, 403, errorPage('Cross-site form posts are refused.')) };
      }
      return details(request, reply, uid);
    };

    const finish = async (
      request: FastifyRequest,
      reply: FastifyReply,
      result: InteractionResults,
    ) => {
      const provider = deps.server.current!;
      const target = await provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: false,
      });
      return reply.code(303).header('cache-control', 'no-store').redirect(target, 303);
    };

    scope.get(
      `${OAUTH_PREFIX}/interaction/:uid`,
      { schema: { hide: true, params: uidParams } },
      async (request, reply) => {
        const d = await details(request, reply, request.params.uid);
        if ('error' in d) return d.error;
        const action = `${OAUTH_PREFIX}/interaction/${d.found.uid}`;
        if (d.found.prompt.name === 'login') {
          const captcha = deps.captchaMode === 'always' ? await deps.auth.captcha() : undefined;
          return html(
            reply,
            200,
            signInPage({ action: `${action}/login`, clientName: d.clientName, captcha }),
          );
        }
        const scopes = String(d.found.params.scope ?? '')
          .split(' ')
          .filter(Boolean);
        return html(
          reply,
          200,
          consentPage({
            action: `${action}/confirm`,
            abortAction: `${action}/abort`,
            clientName: d.clientName,
            scopes,
          }),
        );
      },
    );

    scope.post(
      `${OAUTH_PREFIX}/interaction/:uid/login`,
      { schema: { hide: true, params: uidParams } },
      async (request, reply) => {
        const d = await posted(request, reply, request.params.uid);
        if ('error' in d) return d.error;
        const action = `${OAUTH_PREFIX}/interaction/${d.found.uid}/login`;
        const pendingKey = `auth:oauth2:second-factor:${d.found.uid}`;
        const signInAgain = (status: number, error: string, captcha?: PageCaptcha) =>
          html(reply, status, signInPage({ action, clientName: d.clientName, error, captcha }));
        if (d.found.prompt.name !== 'login') {
          return signInAgain(400, 'Enter a username and a password.');
        }
        const ctx = contextOf(request);
        const options = { pendingKey, captchaMode: deps.captchaMode };
        const totp = totpForm.safeParse(request.body ?? {});
        const form = signInForm.safeParse(request.body ?? {});
        let step: SignInStep;
        if (totp.success) {
          step = await signInStep(
            deps.auth,
            { code: totp.data.totp_code, ...options },
            ctx,
            deps.cache,
          );
        } else if (form.success) {
          step = await signInStep(deps.auth, { form: form.data, ...options }, ctx, deps.cache);
        } else {
          return signInAgain(400, 'Enter a username and a password.');
        }
        switch (step.kind) {
          case 'expired':
            return signInAgain(400, 'Sign in again.');
          case 'code':
            return html(
              reply,
              200,
              totpPage({ action, clientName: d.clientName, error: step.error }),
            );
          case 'refused':
            return html(
              reply,
              200,
              signInPage({
                action,
                clientName: d.clientName,
                username: form.data?.username,
                tenantCode: form.data?.tenant_code,
                error: step.error,
                captcha: step.captcha,
              }),
            );
          case 'password_change':
            return html(reply, 403, passwordChangePage(`${deps.server.origin ?? ''}/password`));
          case 'admitted':
            return finish(request, reply, { login: step.login });
        }
      },
    );

    scope.post(
      `${OAUTH_PREFIX}/interaction/:uid/confirm`,
      { schema: { hide: true, params: uidParams } },
      async (request, reply) => {
        const d = await posted(request, reply, request.params.uid);
        if ('error' in d) return d.error;
        const { found, provider } = d;
        if (found.prompt.name !== 'consent' || !found.session?.accountId) {
          return html(reply, 400, errorPage('Nothing to approve for this request.'));
        }
        const missing = found.prompt.details as {
          missingOIDCScope?: string[];
          missingOIDCClaims?: string[];
          missingResourceScopes?: Record<string, string[]>;
        };
        const grant = found.grantId
          ? await provider.Grant.find(found.grantId)
          : new provider.Grant({
              accountId: found.session.accountId,
              clientId: String(found.params.client_id),
            });
        if (!grant) return html(reply, 400, errorPage('This sign-in request has expired.'));
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
          grant.addResourceScope(indicator, scopes.join(' '));
        }
        const grantId = await grant.save();
        return finish(request, reply, { consent: found.grantId ? {} : { grantId } });
      },
    );

    scope.post(
      `${OAUTH_PREFIX}/interaction/:uid/abort`,
      { schema: { hide: true, params: uidParams } },
      async (request, reply) => {
        const d = await posted(request, reply, request.params.uid);
        if ('error' in d) return d.error;
        return finish(request, reply, {
          error: 'access_denied',
          error_description: 'the user denied the request',
        });
      },
    );
  });
}
