import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { requirePermission } from '../identity.permissions.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { idParams } from '../identity.schema.js';
import {
  createTenantBody,
  listTenantsQuery,
  tenantView,
  updateTenantBody,
} from './tenants.schema.js';
import type { IdentityPermission as PermissionCode } from '../identity.permissions.js';
import type { TenantsService } from './tenants.service.js';

const tags = ['identity'];

/** Platform administrators only, and they must hold the code too. */
const allow = (code: PermissionCode) => [requirePlatformAdmin, requirePermission(code)];

export function registerTenantRoutes(app: HttpApp, tenants: TenantsService): void {
  app.get(
    '/api/v1/tenants',
    {
      onRequest: allow('system:tenant:list'),
      schema: {
        tags,
        summary: 'All tenants (platform administrators)',
        querystring: listTenantsQuery,
        response: { 200: envelopeOf(listOf(tenantView)) },
      },
    },
    async (request) => ok(await tenants.list(request.query)),
  );

  app.post(
    '/api/v1/tenants',
    {
      onRequest: allow('system:tenant:create'),
      schema: {
        tags,
        summary: 'Create a tenant with its super_admin role and first administrator',
        body: createTenantBody,
        response: { 200: envelopeOf(tenantView) },
      },
    },
    async (request) => ok(await tenants.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/tenants/:id',
    {
      onRequest: allow('system:tenant:list'),
      schema: {
        tags,
        summary: 'One tenant',
        params: idParams,
        response: { 200: envelopeOf(tenantView) },
      },
    },
    async (request) => ok(await tenants.get(request.params.id)),
  );

  app.put(
    '/api/v1/tenants/:id',
    {
      onRequest: allow('system:tenant:update'),
      schema: {
        tags,
        summary: 'Change a tenant (name, status, storage_quota_mb; the code is immutable)',
        params: idParams,
        body: updateTenantBody,
        response: { 200: envelopeOf(tenantView) },
      },
    },
    async (request) =>
      ok(await tenants.update(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/tenants/:id',
    {
      onRequest: allow('system:tenant:delete'),
      schema: {
        tags,
        summary: 'Delete a tenant with its users, roles and departments',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await tenants.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
