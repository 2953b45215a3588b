import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission } from '../system.permissions.js';
import { keyParams, listSettingsQuery, putSettingBody, settingView } from './settings.schema.js';
import type { SettingsService } from './settings.service.js';

const tags = ['system'];

export function registerSettingRoutes(app: HttpApp, settings: SettingsService): void {
  app.get(
    '/api/v1/system/settings',
    {
      onRequest: requirePermission('system:setting:list'),
      schema: {
        tags,
        summary: "The tenant's settings, by key",
        querystring: listSettingsQuery,
        response: { 200: envelopeOf(listOf(settingView)) },
      },
    },
    async (request) => ok(await settings.list(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/system/settings/:key',
    {
      onRequest: requirePermission('system:setting:list'),
      schema: {
        tags,
        summary: 'One setting',
        params: keyParams,
        response: { 200: envelopeOf(settingView) },
      },
    },
    async (request) => ok(await settings.get(principalOf(request), request.params.key)),
  );
  app.put(
    '/api/v1/system/settings/:key',
    {
      onRequest: requirePermission('system:setting:update'),
      schema: {
        tags,
        summary: 'Create or replace a setting; the value must be of its type (40001)',
        params: keyParams,
        body: putSettingBody,
        response: { 200: envelopeOf(settingView) },
      },
    },
    async (request) =>
      ok(await settings.put(principalOf(request), request.params.key, request.body)),
  );
  app.delete(
    '/api/v1/system/settings/:key',
    {
      onRequest: requirePermission('system:setting:update'),
      schema: {
        tags,
        summary: 'Delete a setting',
        params: keyParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await settings.remove(principalOf(request), request.params.key);
      return ok(null);
    },
  );
}
