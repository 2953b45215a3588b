import type { BpmPermission as PermissionCode } from '../bpm.permissions.js';
import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../bpm.permissions.js';
import { envelopeOf, listOf, ok, pageQuery } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { DirectoryOf } from '../bpm.ports.js';
import {
  createDefinitionBody,
  definitionView,
  listDefinitionsQuery,
  updateDefinitionBody,
} from './definitions.schema.js';
import type { DefinitionsService } from './definitions.service.js';

const tags = ['bpm'];
const one = { 200: envelopeOf(definitionView) };
const publishedView = definitionView.extend({
  warnings: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .describe(
      'what may keep requests from deciding their route (a condition on an optional field with no "empty" branch before it); published all the same',
    ),
});

export function registerDefinitionRoutes(
  app: HttpApp,
  definitions: DefinitionsService,
  directoryOf: DirectoryOf,
): void {
  app.get(
    '/api/v1/bpm/definitions',
    {
      preHandler: requirePermission('bpm:definition:list'),
      schema: {
        tags,
        summary: 'Definition versions of the tenant',
        querystring: listDefinitionsQuery,
        response: { 200: envelopeOf(listOf(definitionView)) },
      },
    },
    async (request) => ok(await definitions.list(principalOf(request), request.query)),
  );

  app.post(
    '/api/v1/bpm/definitions',
    {
      preHandler: requirePermission('bpm:definition:create'),
      schema: {
        tags,
        summary: 'Create version 1 of a definition, as a draft',
        body: createDefinitionBody,
        response: one,
      },
    },
    async (request) => ok(await definitions.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/bpm/definitions/:id',
    {
      preHandler: requirePermission('bpm:definition:list'),
      schema: { tags, summary: 'One definition version', params: idParams, response: one },
    },
    async (request) => ok(await definitions.get(principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/bpm/definitions/:id',
    {
      preHandler: requirePermission('bpm:definition:update'),
      schema: {
        tags,
        summary: 'Change a draft',
        params: idParams,
        body: updateDefinitionBody,
        response: one,
      },
    },
    async (request) =>
      ok(await definitions.update(principalOf(request), request.params.id, request.body)),
  );

  const transition = (
    path: string,
    permission: PermissionCode,
    summary: string,
    run: (p: ReturnType<typeof principalOf>, id: number) => Promise<unknown>,
    response: z.ZodType = definitionView,
  ) =>
    app.post(
      `/api/v1/bpm/definitions/:id/${path}`,
      {
        preHandler: requirePermission(permission),
        schema: { tags, summary, params: idParams, response: { 200: envelopeOf(response) } },
      },
      async (request) =>
        ok((await run(principalOf(request), request.params.id)) as z.infer<typeof definitionView>),
    );
  transition(
    'publish',
    'bpm:definition:publish',
    'Publish after full-tree validation; archives the published version',
    (p, id) => definitions.publish(p, id),
    publishedView,
  );
  transition(
    'new-version',
    'bpm:definition:create',
    'A new draft copied from this version',
    (p, id) => definitions.newVersion(p, id),
  );
  transition('suspend', 'bpm:definition:suspend', 'No new instances; running ones go on', (p, id) =>
    definitions.suspend(p, id),
  );

  app.get(
    '/api/v1/bpm/startable',
    {
      schema: {
        tags,
        summary: 'Published flow-form definitions the caller may start',
        querystring: z.object({ ...pageQuery }),
        response: { 200: envelopeOf(listOf(definitionView)) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return ok(
        await definitions.startable(
          principal,
          await directoryOf(principal.tenantId).profile(principal.userId),
          request.query,
        ),
      );
    },
  );
}
