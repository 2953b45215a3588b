import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../auth.permissions.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import { idParams, idQuery } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { SessionsService } from './sessions.service.js';

const tags = ['auth'];
const sessionView = z.object({
  id: z.number().int(),
  current: z.boolean(),
  ip: z.string().nullable(),
  location: z
    .string()
    .nullable()
    .describe('where the address is, as the login log shows it; "intranet" for private ones'),
  device_id: z.string().nullable(),
  device: z.string().nullable(),
  os: z.string().nullable(),
  browser: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
});

export function registerSessionRoutes(app: HttpApp, sessions: SessionsService): void {
  app.get(
    '/api/v1/me/sessions',
    {
      schema: {
        tags,
        summary: 'The caller’s signed-in sessions (the current one marked)',
        response: { 200: envelopeOf(z.array(sessionView)) },
      },
    },
    async (request) => ok(await sessions.listOwn(principalOf(request))),
  );

  app.delete(
    '/api/v1/me/sessions/:id',
    {
      schema: {
        tags,
        summary: 'Sign one of the own sessions out',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await sessions.endOwn(principalOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/api/v1/sessions',
    {
      onRequest: requirePermission('system:user:list'),
      schema: {
        tags,
        summary: 'A user’s signed-in sessions (tenant admins)',
        querystring: z.object({ user_id: idQuery }),
        response: { 200: envelopeOf(z.array(sessionView)) },
      },
    },
    async (request) => {
      const userId = request.query.user_id;
      if (userId === undefined) return ok([]);
      return ok(await sessions.listOfUser(principalOf(request), userId));
    },
  );

  app.delete(
    '/api/v1/sessions/:id',
    {
      onRequest: requirePermission('system:user:update'),
      schema: {
        tags,
        summary: 'Sign a session of the tenant out (tenant admins)',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await sessions.endAny(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
