import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission, type SystemPermission } from '../system.permissions.js';
import { codeParams, errorTextView, updateErrorTextBody } from './error-texts.schema.js';
import type { ErrorTextsService } from './error-texts.service.js';

const tags = ['system'];
/** The texts are the platform's: platform administrators holding the code edit them. */
const allow = (code: SystemPermission) => [requirePlatformAdmin, requirePermission(code)];

export function registerErrorTextRoutes(app: HttpApp, texts: ErrorTextsService): void {
  app.get(
    '/api/v1/system/error-texts',
    {
      onRequest: allow('system:error-text:list'),
      schema: {
        tags,
        summary: 'Every application code with its default and current text, by code',
        response: { 200: envelopeOf(z.array(errorTextView)) },
      },
    },
    async () => ok(await texts.list()),
  );
  app.put(
    '/api/v1/system/error-texts/:code',
    {
      onRequest: allow('system:error-text:update'),
      schema: {
        tags,
        summary: "Override a code's text (every service answers it within the refresh interval)",
        params: codeParams,
        body: updateErrorTextBody,
        response: { 200: envelopeOf(errorTextView) },
      },
    },
    async (request) =>
      ok(await texts.update(principalOf(request), request.params.code, request.body)),
  );
  app.delete(
    '/api/v1/system/error-texts/:code',
    {
      onRequest: allow('system:error-text:update'),
      schema: {
        tags,
        summary: "Restore a code's default text",
        params: codeParams,
        response: { 200: envelopeOf(errorTextView) },
      },
    },
    async (request) => ok(await texts.restore(principalOf(request), request.params.code)),
  );
}
