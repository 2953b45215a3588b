import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { statsView } from './stats.schema.js';
import type { StatsService } from './stats.service.js';

const tags = ['bpm'];

export function registerStatsRoutes(app: HttpApp, stats: StatsService): void {
  app.get(
    '/api/v1/bpm/stats',
    {
      preHandler: requirePlatformAdmin,
      schema: {
        tags,
        summary:
          'Analytics of the tenant: statuses, 30-day trend, outcomes, bottlenecks (platform admin)',
        response: { 200: envelopeOf(statsView) },
      },
    },
    async (request) => ok(await stats.stats(principalOf(request))),
  );
}
