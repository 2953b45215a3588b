import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../bpm.permissions.js';
import { ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { previewBody, simulateBody } from './simulation.schema.js';
import type { SimulationService } from './simulation.service.js';

export function registerSimulationRoutes(app: HttpApp, simulation: SimulationService): void {
  app.post(
    '/api/v1/bpm/definitions/:id/simulate',
    {
      preHandler: requirePermission('bpm:definition:list'),
      schema: {
        tags: ['bpm'],
        summary: 'Dry run: the path an instance would take and why (writes nothing)',
        params: idParams,
        body: simulateBody,
      },
    },
    async (request) =>
      ok(await simulation.simulate(principalOf(request), request.params.id, request.body)),
  );
  app.post(
    '/api/v1/bpm/definitions/:id/preview',
    {
      schema: {
        tags: ['bpm'],
        summary:
          "The route the caller's own request would take (a published version they may start; writes nothing)",
        params: idParams,
        body: previewBody,
      },
    },
    async (request) =>
      ok(await simulation.preview(principalOf(request), request.params.id, request.body)),
  );
}
