import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission, type IdentityPermission } from '../identity.permissions.js';
import { idParams } from '../identity.schema.js';
import { createMenuBody, menuNode, menuView, updateMenuBody } from './menus.schema.js';
import type { MenusService } from './menus.service.js';

const tags = ['identity'];
/** The menu tree is the platform's: platform administrators holding the code edit it. */
const allow = (code: IdentityPermission) => [requirePlatformAdmin, requirePermission(code)];

export function registerMenuRoutes(app: HttpApp, menus: MenusService): void {
  app.get(
    '/api/v1/menus/my',
    {
      schema: {
        tags,
        summary: "The caller's menu tree: visible entries whose permission code they hold",
        response: { 200: envelopeOf(z.array(menuNode)) },
      },
    },
    async (request) => ok(await menus.mine(principalOf(request))),
  );
  app.get(
    '/api/v1/menus',
    {
      onRequest: allow('system:menu:list'),
      schema: {
        tags,
        summary: 'The whole menu tree (`children`, ordered by sort, then id)',
        response: { 200: envelopeOf(z.array(menuNode)) },
      },
    },
    async () => ok(await menus.tree()),
  );
  app.get(
    '/api/v1/menus/:id',
    {
      onRequest: allow('system:menu:list'),
      schema: {
        tags,
        summary: 'One menu entry',
        params: idParams,
        response: { 200: envelopeOf(menuView) },
      },
    },
    async (request) => ok(await menus.get(request.params.id)),
  );
  app.post(
    '/api/v1/menus',
    {
      onRequest: allow('system:menu:create'),
      schema: {
        tags,
        summary: 'Create a menu entry',
        body: createMenuBody,
        response: { 200: envelopeOf(menuView) },
      },
    },
    async (request) => ok(await menus.create(principalOf(request), request.body)),
  );
  app.put(
    '/api/v1/menus/:id',
    {
      onRequest: allow('system:menu:update'),
      schema: {
        tags,
        summary: 'Change a menu entry (partial; no cycles)',
        params: idParams,
        body: updateMenuBody,
        response: { 200: envelopeOf(menuView) },
      },
    },
    async (request) =>
      ok(await menus.update(principalOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/v1/menus/:id',
    {
      onRequest: allow('system:menu:delete'),
      schema: {
        tags,
        summary: 'Delete a menu entry without children',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await menus.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
