import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission, type SystemPermission } from '../system.permissions.js';
import { templateParams, templateView, updateTemplateBody } from './templates.schema.js';
import type { TemplatesService } from './templates.service.js';

const tags = ['system'];
/** The templates are the platform's: platform administrators holding the code edit them. */
const allow = (code: SystemPermission) => [requirePlatformAdmin, requirePermission(code)];

export function registerTemplateRoutes(app: HttpApp, templates: TemplatesService): void {
  app.get(
    '/api/v1/system/templates',
    {
      onRequest: allow('system:template:list'),
      schema: {
        tags,
        summary: 'Every notification template in every language, current and default texts',
        response: { 200: envelopeOf(z.array(templateView)) },
      },
    },
    async () => ok(await templates.list()),
  );
  app.put(
    '/api/v1/system/templates/:key/:lang',
    {
      onRequest: allow('system:template:update'),
      schema: {
        tags,
        summary: "Change a template's text in one language (unknown placeholders: 40001)",
        params: templateParams,
        body: updateTemplateBody,
        response: { 200: envelopeOf(templateView) },
      },
    },
    async (request) =>
      ok(
        await templates.update(
          principalOf(request),
          request.params.key,
          request.params.lang,
          request.body,
        ),
      ),
  );
  app.delete(
    '/api/v1/system/templates/:key/:lang',
    {
      onRequest: allow('system:template:update'),
      schema: {
        tags,
        summary: "Restore a template's default text in one language",
        params: templateParams,
        response: { 200: envelopeOf(templateView) },
      },
    },
    async (request) =>
      ok(await templates.restore(principalOf(request), request.params.key, request.params.lang)),
  );
}
