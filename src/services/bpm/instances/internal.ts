import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isPlaceholderSecret } from '../../../config/secrets.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/http/errors.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { BpmDb } from '../bpm.tables.js';
import { findPublished } from '../definitions/definitions.repo.js';
import { formProblems, toInstanceItem, type InstancesService } from './instances.service.js';
import { instanceItemView } from './instances.schema.js';
import type { FormSchema } from '../engine/types.js';
import { idempotencyHooks } from '../idempotency/idempotency.hooks.js';
import type { IdempotencyService } from '../idempotency/idempotency.service.js';

const positive = z.number().int().min(1);
export const internalStartBody = z.object({
  tenant_id: positive,
  initiator_id: positive,
  definition_key: z.string().min(1).max(64),
  biz_id: z.string().min(1).max(128),
  form: z.record(z.string(), z.unknown()).optional(),
  title: z.string().trim().min(1).max(200).optional(),
});
export const byBizQuery = z.object({
  biz_type: z.string().min(1).max(64),
  biz_id: z.string().min(1).max(128),
  tenant_id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .transform(Number)
    .optional(),
});

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The internal endpoints fail closed: with BPM_INTERNAL_TOKEN unset, empty, a placeholder, or
 * (in production) a `dev-` value, every one answers 503. A wrong token is 40104; the comparison
 * runs in constant time over digests, so a length difference neither throws nor leaks.
 */
export function internalTokenGuard(configured: string | undefined, production: boolean) {
  const usable =
    configured !== undefined &&
    configured.trim() !== '' &&
    !isPlaceholderSecret(configured.replace(/^dev-/, '')) &&
    !(production && configured.startsWith('dev-'));
  const expected = usable ? digest(configured) : undefined;
  return async (request: FastifyRequest) => {
    if (!expected)
      throw new AppError(ERROR_CODES.UNAVAILABLE, 'internal endpoints are not configured');
    const sent = request.headers['x-internal-token'];
    if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), expected)) {
      throw new AppError(ERROR_CODES.INTERNAL_TOKEN_WRONG);
    }
  };
}

export function registerInternalRoutes(
  app: HttpApp,
  db: BpmDb,
  instances: InstancesService,
  guard: (request: FastifyRequest) => Promise<void>,
  idempotency: IdempotencyService,
): void {
  const tags = ['bpm-internal'];
  // A back end's keys: user 0 of the tenant named in the (already validated) body.
  const keyed = idempotencyHooks(idempotency, (request) => ({
    tenantId: (request.body as z.infer<typeof internalStartBody>).tenant_id,
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
    async (request) => {
      const body = request.body;
      const definition = await findPublished(db, body.tenant_id, body.definition_key);
      if (!definition) throw AppError.notFound('published definition');
      if (definition.form_mode !== 'business' || !definition.biz_type) {
        throw AppError.conflict('flow-form definitions are started by users');
      }
      const form = formProblems(definition.form_schema as FormSchema, body.form ?? {});
      const started = await instances.startFrom(
        body.tenant_id,
        definition,
        { id: 0, name: 'system' },
        {
          form,
          title: body.title ?? definition.name,
          bizType: definition.biz_type,
          bizId: body.biz_id,
          initiatorId: body.initiator_id,
          selectedAssignees: {},
          checkStarter: false,
        },
      );
      return ok(toInstanceItem(started.instance));
    },
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
      let query = db
        .selectFrom('bpm_instances')
        .selectAll()
        .where('biz_type', '=', biz_type)
        .where('biz_id', '=', biz_id);
      if (tenant_id !== undefined) query = query.where('tenant_id', '=', tenant_id);
      const row = await query.orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!row) throw AppError.notFound('instance');
      return ok(toInstanceItem(row));
    },
  );
}
