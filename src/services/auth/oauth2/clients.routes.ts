import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok, pageQuery } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import {
  clientIdParams,
  clientView,
  clientWithSecret,
  createClientBody,
  updateClientBody,
} from './clients.schema.js';
import type { OAuthClientsService } from './clients.service.js';

const tags = ['oauth2'];
const base = '/api/v1/oauth2/clients';

export function registerClientRoutes(app: HttpApp, clients: OAuthClientsService): void {
  app.get(
    base,
    {
      onRequest: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'OAuth clients (platform admin)',
        querystring: z.object(pageQuery),
        response: { 200: envelopeOf(listOf(clientView)) },
      },
    },
    async (request) => ok(await clients.list(request.query)),
  );

  app.post(
    base,
    {
      onRequest: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'Register an OAuth client; the secret is shown in this response only',
        body: createClientBody,
        response: { 200: envelopeOf(clientWithSecret) },
      },
    },
    async (request) => ok(await clients.create(principalOf(request), request.body)),
  );

  app.get(
    `${base}/:id`,
    {
      onRequest: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'One OAuth client',
        params: clientIdParams,
        response: { 200: envelopeOf(clientView) },
      },
    },
    async (request) => ok(await clients.get(request.params.id)),
  );

  app.put(
    `${base}/:id`,
    {
      onRequest: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'Change an OAuth client (partial; `public` cannot change)',
        params: clientIdParams,
        body: updateClientBody,
        response: { 200: envelopeOf(clientView) },
      },
    },
    async (request) =>
      ok(await clients.update(principalOf(request), request.params.id, request.body)),
  );

  app.post(
    `${base}/:id/secret`,
    {
      onRequest: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'Rotate the client secret; the new one is shown in this response only',
        params: clientIdParams,
        response: { 200: envelopeOf(clientWithSecret) },
      },
    },
    async (request) => ok(await clients.rotateSecret(principalOf(request), request.params.id)),
  );

  app.delete(
    `${base}/:id`,
    {
      onRequest: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'Delete an OAuth client and every token issued to it',
        params: clientIdParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await clients.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
