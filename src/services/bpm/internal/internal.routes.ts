import type { FastifyRequest } from 'fastify';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { idempotencyHooks } from '../idempotency/idempotency.hooks.js';
import type { IdempotencyService } from '../idempotency/idempotency.service.js';
import { instanceItemView } from '../instances/instances.schema.js';
import { byBizQuery, internalStartBody, type InternalStartInput } from './internal.schema.js';
import type { InternalService } from './internal.service.js';

export function registerInternalRoutes(
  app: HttpApp,
  internal: InternalService,
  guard: (request: FastifyRequest) => Promise<void>,
  idempotency: IdempotencyService,
): void {
  const tags = ['bpm-internal'];
  // A back end's keys: user 0 of the tenant named in the (already validated) body.
  const keyed = idempotencyHooks(idempotency, (request) => ({
    tenantId: (request.body as InternalStartInput).tenant_id,
    userId: 0,
  }));
  app.post(
    '/api/v1/bpm/internal/instances',
    {
      onRequest: guard,
      ...keyed,
      schema: {
        tags,
        summary: 'Business start (header X-Internal-Token); 40901 on a running duplicate anchor',
        security: [],
        body: internalStartBody,
        response: { 200: envelopeOf(instanceItemView) },
      },
    },
    async (request) => ok(await internal.start(request.body)),
  );

  app.get(
    '/api/v1/bpm/internal/instances/by-biz',
    {
      onRequest: guard,
      schema: {
        tags,
        summary: 'The newest instance of a business anchor (header X-Internal-Token)',
        security: [],
        querystring: byBizQuery,
        response: { 200: envelopeOf(instanceItemView) },
      },
    },
    async (request) => {
      const { biz_type, biz_id, tenant_id } = request.query;
      return ok(await internal.byAnchor(biz_type, biz_id, tenant_id));
    },
  );
}
