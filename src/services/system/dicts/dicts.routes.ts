import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission } from '../system.permissions.js';
import {
  createDictBody,
  dictCodeParams,
  dictOptionsView,
  dictView,
  listDictsQuery,
  updateDictBody,
} from './dicts.schema.js';
import type { DictsService } from './dicts.service.js';

const tags = ['system'];

export function registerDictRoutes(app: HttpApp, dicts: DictsService): void {
  app.get(
    '/api/v1/system/dicts',
    {
      onRequest: requirePermission('system:dict:list'),
      schema: {
        tags,
        summary: "The tenant's dictionaries with their items, by code",
        querystring: listDictsQuery,
        response: { 200: envelopeOf(listOf(dictView)) },
      },
    },
    async (request) => ok(await dicts.list(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/system/dicts/:id',
    {
      onRequest: requirePermission('system:dict:list'),
      schema: {
        tags,
        summary: 'One dictionary',
        params: idParams,
        response: { 200: envelopeOf(dictView) },
      },
    },
    async (request) => ok(await dicts.get(principalOf(request), request.params.id)),
  );
  app.get(
    '/api/v1/system/dicts/:code/items',
    {
      schema: {
        tags,
        summary:
          "Every signed-in user: the enabled items of the tenant's dictionary `code`, in order, for a select",
        params: dictCodeParams,
        response: { 200: envelopeOf(dictOptionsView) },
      },
    },
    async (request) => ok(await dicts.options(principalOf(request), request.params.code)),
  );
  app.post(
    '/api/v1/system/dicts',
    {
      onRequest: requirePermission('system:dict:create'),
      schema: {
        tags,
        summary: 'Create a dictionary (code unique in the tenant: 409 otherwise)',
        body: createDictBody,
        response: { 200: envelopeOf(dictView) },
      },
    },
    async (request) => ok(await dicts.create(principalOf(request), request.body)),
  );
  app.put(
    '/api/v1/system/dicts/:id',
    {
      onRequest: requirePermission('system:dict:update'),
      schema: {
        tags,
        summary: 'Change a dictionary (partial; `items` replaces every item)',
        params: idParams,
        body: updateDictBody,
        response: { 200: envelopeOf(dictView) },
      },
    },
    async (request) =>
      ok(await dicts.update(principalOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/v1/system/dicts/:id',
    {
      onRequest: requirePermission('system:dict:delete'),
      schema: {
        tags,
        summary: 'Delete a dictionary',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await dicts.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
