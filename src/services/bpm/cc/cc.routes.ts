import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { ccQuery, ccView } from './cc.schema.js';
import type { CcService } from './cc.service.js';

const tags = ['bpm'];

export function registerCcRoutes(app: HttpApp, cc: CcService): void {
  app.get(
    '/api/v1/bpm/cc/my',
    {
      schema: {
        tags,
        summary: 'CC records of the caller',
        querystring: ccQuery,
        response: { 200: envelopeOf(listOf(ccView)) },
      },
    },
    async (request) => ok(await cc.list(principalOf(request), request.query)),
  );
  app.post(
    '/api/v1/bpm/cc/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark a CC record read (idempotent)',
        params: idParams,
        response: { 200: envelopeOf(ccView) },
      },
    },
    async (request) => ok(await cc.read(principalOf(request), request.params.id)),
  );
}
