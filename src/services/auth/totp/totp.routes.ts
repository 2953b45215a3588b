import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { contextOf, withRetryAfter } from '../auth.routes.js';
import type { TotpService } from './totp.service.js';

const tags = ['auth'];
const password = z.string().min(1).max(128).describe('the caller’s current password');
const passwordBody = z.object({ password });
const codeBody = z.object({ code: z.string().trim().min(1).max(16), password });

export function registerTotpRoutes(app: HttpApp, totp: TotpService): void {
  app.get(
    '/api/v1/me/totp',
    {
      schema: {
        tags,
        summary: 'Whether two-factor authentication is on',
        response: { 200: envelopeOf(z.object({ enabled: z.boolean() })) },
      },
    },
    async (request) => ok(await totp.status(principalOf(request))),
  );

  app.post(
    '/api/v1/me/totp/enroll',
    {
      schema: {
        tags,
        summary: 'Start TOTP enrolment: a secret and its otpauth URI for the QR code',
        body: passwordBody,
        response: { 200: envelopeOf(z.object({ secret: z.string(), otpauth_uri: z.string() })) },
      },
    },
    async (request, reply) =>
      ok(
        await withRetryAfter(reply, () =>
          totp.enroll(principalOf(request), request.body.password, contextOf(request)),
        ),
      ),
  );

  app.post(
    '/api/v1/me/totp/confirm',
    {
      schema: {
        tags,
        summary:
          'Turn TOTP on with a first code; the recovery codes are shown this once, other sessions end',
        body: codeBody,
        response: { 200: envelopeOf(z.object({ recovery_codes: z.array(z.string()) })) },
      },
    },
    async (request, reply) =>
      ok(
        await withRetryAfter(reply, () =>
          totp.confirm(principalOf(request), request.body, contextOf(request)),
        ),
      ),
  );

  app.post(
    '/api/v1/me/totp/disable',
    {
      schema: {
        tags,
        summary: 'Turn TOTP off (needs a current code or a recovery code); other sessions end',
        body: codeBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request, reply) => {
      await withRetryAfter(reply, () =>
        totp.disable(principalOf(request), request.body, contextOf(request)),
      );
      return ok(null);
    },
  );
}
