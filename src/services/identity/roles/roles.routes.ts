import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../identity.permissions.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { idParams } from '../identity.schema.js';
import type { PermissionSpec } from '../../../platform/auth/permissions.js';
import { listRolesQuery, roleBodies, roleView } from './roles.schema.js';
import type { RolesService } from './roles.service.js';

const tags = ['identity'];

/** `catalogue`: every module's permission codes (roles grant from it). */
export function registerRoleRoutes(
  app: HttpApp,
  roles: RolesService,
  catalogue: readonly PermissionSpec[],
): void {
  const bodies = roleBodies(catalogue);
  app.get(
    '/api/v1/roles',
    {
      onRequest: requirePermission('system:role:list'),
      schema: {
        tags,
        summary: 'Roles of the tenant',
        querystring: listRolesQuery,
        response: { 200: envelopeOf(listOf(roleView)) },
      },
    },
    async (request) => ok(await roles.list(principalOf(request), request.query)),
  );

  app.post(
    '/api/v1/roles',
    {
      onRequest: requirePermission('system:role:create'),
      schema: {
        tags,
        summary: 'Create a role',
        body: bodies.create,
        response: { 200: envelopeOf(roleView) },
      },
    },
    async (request) => ok(await roles.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/roles/:id',
    {
      onRequest: requirePermission('system:role:list'),
      schema: {
        tags,
        summary: 'One role',
        params: idParams,
        response: { 200: envelopeOf(roleView) },
      },
    },
    async (request) => ok(await roles.get(principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/roles/:id',
    {
      onRequest: requirePermission('system:role:update'),
      schema: {
        tags,
        summary: 'Change a role (partial; permissions replaces the set)',
        params: idParams,
        body: bodies.update,
        response: { 200: envelopeOf(roleView) },
      },
    },
    async (request) =>
      ok(await roles.update(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/roles/:id',
    {
      onRequest: requirePermission('system:role:delete'),
      schema: {
        tags,
        summary: 'Delete a role; its holders lose its permissions at once',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await roles.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
