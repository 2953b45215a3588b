import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission } from '../system.permissions.js';
import {
  createNoticeBody,
  effectiveNoticeView,
  listNoticesQuery,
  noticeView,
  updateNoticeBody,
} from './notices.schema.js';
import type { NoticesService } from './notices.service.js';

const tags = ['system'];

export function registerNoticeRoutes(app: HttpApp, notices: NoticesService): void {
  app.get(
    '/api/v1/notices/effective',
    {
      schema: {
        tags,
        summary:
          "Every signed-in user: the tenant's published notices in effect now, newest first; a bare array of at most 50",
        response: { 200: envelopeOf(z.array(effectiveNoticeView)) },
      },
    },
    async (request) => ok(await notices.effective(principalOf(request))),
  );
  app.get(
    '/api/v1/notices',
    {
      onRequest: requirePermission('system:notice:list'),
      schema: {
        tags,
        summary: "The tenant's notices, newest first",
        querystring: listNoticesQuery,
        response: { 200: envelopeOf(listOf(noticeView)) },
      },
    },
    async (request) => ok(await notices.list(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/notices/:id',
    {
      onRequest: requirePermission('system:notice:list'),
      schema: {
        tags,
        summary: 'One notice',
        params: idParams,
        response: { 200: envelopeOf(noticeView) },
      },
    },
    async (request) => ok(await notices.get(principalOf(request), request.params.id)),
  );
  app.post(
    '/api/v1/notices',
    {
      onRequest: requirePermission('system:notice:create'),
      schema: {
        tags,
        summary: 'Create a notice (a draft unless published)',
        body: createNoticeBody,
        response: { 200: envelopeOf(noticeView) },
      },
    },
    async (request) => ok(await notices.create(principalOf(request), request.body)),
  );
  app.put(
    '/api/v1/notices/:id',
    {
      onRequest: requirePermission('system:notice:update'),
      schema: {
        tags,
        summary: 'Change, publish or withdraw a notice (partial)',
        params: idParams,
        body: updateNoticeBody,
        response: { 200: envelopeOf(noticeView) },
      },
    },
    async (request) =>
      ok(await notices.update(principalOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/v1/notices/:id',
    {
      onRequest: requirePermission('system:notice:delete'),
      schema: {
        tags,
        summary: 'Delete a notice',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await notices.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
