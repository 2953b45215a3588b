import { z } from 'zod';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { forgotBody, resetBody } from './password-reset.schema.js';
import type { PasswordResetService } from './password-reset.service.js';

const tags = ['auth'];

export function registerPasswordResetRoutes(app: HttpApp, resets: PasswordResetService): void {
  app.post(
    '/api/v1/password/forgot',
    {
      schema: {
        tags,
        summary: 'Mail a password-reset link; the same answer whether or not the account exists',
        security: [],
        body: forgotBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await resets.forgot(request.body, request.ip);
      return ok(null);
    },
  );

  app.post(
    '/api/v1/password/reset',
    {
      schema: {
        tags,
        summary: 'Set a new password with a reset token; signs every session out',
        security: [],
        body: resetBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await resets.reset(request.body, request.ip);
      return ok(null);
    },
  );
}
