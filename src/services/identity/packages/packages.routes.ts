import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission, type IdentityPermission } from '../identity.permissions.js';
import { idParams } from '../identity.schema.js';
import { createPackageBody, packageView, updatePackageBody } from './packages.schema.js';
import type { PackagesService } from './packages.service.js';

const tags = ['identity'];
/** Packages span tenants: platform administrators holding the code manage them. */
const allow = (code: IdentityPermission) => [requirePlatformAdmin, requirePermission(code)];

export function registerPackageRoutes(app: HttpApp, packages: PackagesService): void {
  const one = { 200: envelopeOf(packageView) };
  app.get(
    '/api/v1/packages',
    {
      onRequest: allow('system:package:list'),
      schema: {
        tags,
        summary: 'Tenant packages',
        response: { 200: envelopeOf(z.array(packageView)) },
      },
    },
    async () => ok(await packages.list()),
  );
  app.get(
    '/api/v1/packages/:id',
    {
      onRequest: allow('system:package:list'),
      schema: { tags, summary: 'One tenant package', params: idParams, response: one },
    },
    async (request) => ok(await packages.get(request.params.id)),
  );
  app.post(
    '/api/v1/packages',
    {
      onRequest: allow('system:package:create'),
      schema: { tags, summary: 'Create a tenant package', body: createPackageBody, response: one },
    },
    async (request) => ok(await packages.create(principalOf(request), request.body)),
  );
  app.put(
    '/api/v1/packages/:id',
    {
      onRequest: allow('system:package:update'),
      schema: {
        tags,
        summary: 'Change a tenant package (partial; menu_ids replaces the set)',
        params: idParams,
        body: updatePackageBody,
        response: one,
      },
    },
    async (request) =>
      ok(await packages.update(principalOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/v1/packages/:id',
    {
      onRequest: allow('system:package:delete'),
      schema: {
        tags,
        summary: 'Delete a package no tenant is on (409 otherwise)',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await packages.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
