import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../identity.permissions.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { idParams } from '../identity.schema.js';
import {
  createUserBody,
  listUsersQuery,
  updatedUserView,
  updateUserBody,
  userView,
} from './users.schema.js';
import type { UsersService } from './users.service.js';

const tags = ['identity'];

export function registerUserRoutes(app: HttpApp, users: UsersService): void {
  app.get(
    '/api/v1/users',
    {
      onRequest: requirePermission('system:user:list'),
      schema: {
        tags,
        summary: 'Users of the tenant',
        querystring: listUsersQuery,
        response: { 200: envelopeOf(listOf(userView)) },
      },
    },
    async (request) => ok(await users.list(principalOf(request), request.query)),
  );

  app.post(
    '/api/v1/users',
    {
      onRequest: requirePermission('system:user:create'),
      schema: {
        tags,
        summary: 'Create a user',
        body: createUserBody,
        response: { 200: envelopeOf(userView) },
      },
    },
    async (request) => ok(await users.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/users/:id',
    {
      onRequest: requirePermission('system:user:list'),
      schema: {
        tags,
        summary: 'One user',
        params: idParams,
        response: { 200: envelopeOf(userView) },
      },
    },
    async (request) => ok(await users.get(principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/users/:id',
    {
      onRequest: requirePermission('system:user:update'),
      schema: {
        tags,
        summary: 'Change a user (partial; role_ids replaces the set)',
        params: idParams,
        body: updateUserBody,
        response: { 200: envelopeOf(updatedUserView) },
      },
    },
    async (request) =>
      ok(await users.update(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/users/:id',
    {
      onRequest: requirePermission('system:user:delete'),
      schema: {
        tags,
        summary: 'Delete a user',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await users.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
