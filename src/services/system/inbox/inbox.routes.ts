import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { inboxView, listInboxQuery } from './inbox.schema.js';
import type { InboxService } from './inbox.service.js';

const tags = ['system'];

/** Every signed-in user, their own notices only: no permission code. */
export function registerInboxRoutes(app: HttpApp, inbox: InboxService): void {
  app.get(
    '/api/v1/inbox',
    {
      schema: {
        tags,
        summary: "The caller's inbox, newest first",
        querystring: listInboxQuery,
        response: { 200: envelopeOf(listOf(inboxView)) },
      },
    },
    async (request) => ok(await inbox.list(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/inbox/unread-count',
    {
      schema: {
        tags,
        summary: "How many of the caller's notices are unread",
        response: { 200: envelopeOf(z.object({ count: z.number().int() })) },
      },
    },
    async (request) => ok(await inbox.unreadCount(principalOf(request))),
  );
  app.put(
    '/api/v1/inbox/read-all',
    {
      schema: {
        tags,
        summary: "Mark every unread notice of the caller's read",
        response: { 200: envelopeOf(z.object({ updated: z.number().int() })) },
      },
    },
    async (request) => ok(await inbox.markAllRead(principalOf(request))),
  );
  app.put(
    '/api/v1/inbox/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark one of the caller\u2019s notices read (another\u2019s id is 404)',
        params: idParams,
        response: { 200: envelopeOf(inboxView) },
      },
    },
    async (request) => ok(await inbox.markRead(principalOf(request), request.params.id)),
  );
}
