import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import type { PermissionSpec } from '../../../platform/auth/permissions.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';

const permissionView = z.object({
  code: z.string(),
  description: z.string(),
  routes: z.array(z.string()).describe('`METHOD /path` of each route that requires the code'),
  platform_only: z
    .boolean()
    .describe(
      'its routes also need a platform administrator: granted in a tenant role it opens nothing',
    ),
});

/** The catalogue of every module, for the console's role editor: the same for every caller. */
export function registerPermissionRoutes(app: HttpApp, catalogue: readonly PermissionSpec[]): void {
  app.get(
    '/api/v1/permissions',
    {
      schema: {
        tags: ['identity'],
        summary: 'Every permission code a role may grant, with the routes that require it',
        response: { 200: envelopeOf(z.array(permissionView)) },
      },
    },
    async (request) => {
      principalOf(request); // signed-in users only
      return ok(
        catalogue.map((p) => ({
          code: p.code,
          description: p.description,
          routes: [...p.routes],
          platform_only: p.platformOnly === true,
        })),
      );
    },
  );
}
