import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../identity.permissions.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { idParams } from '../identity.schema.js';
import {
  createDepartmentBody,
  departmentNode,
  departmentView,
  listDepartmentsQuery,
  updateDepartmentBody,
} from './departments.schema.js';
import type { DepartmentsService } from './departments.service.js';

const tags = ['identity'];

export function registerDepartmentRoutes(app: HttpApp, departments: DepartmentsService): void {
  app.get(
    '/api/v1/departments',
    {
      onRequest: requirePermission('system:dept:list'),
      schema: {
        tags,
        summary: 'Departments of the tenant',
        querystring: listDepartmentsQuery,
        response: { 200: envelopeOf(listOf(departmentView)) },
      },
    },
    async (request) => ok(await departments.list(principalOf(request), request.query)),
  );

  app.get(
    '/api/v1/departments/tree',
    {
      onRequest: requirePermission('system:dept:list'),
      schema: {
        tags,
        summary: "The tenant's departments as a tree (`children`, ordered by sort, then id)",
        response: { 200: envelopeOf(z.array(departmentNode)) },
      },
    },
    async (request) => ok(await departments.tree(principalOf(request))),
  );

  app.post(
    '/api/v1/departments',
    {
      onRequest: requirePermission('system:dept:create'),
      schema: {
        tags,
        summary: 'Create a department',
        body: createDepartmentBody,
        response: { 200: envelopeOf(departmentView) },
      },
    },
    async (request) => ok(await departments.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/departments/:id',
    {
      onRequest: requirePermission('system:dept:list'),
      schema: {
        tags,
        summary: 'One department',
        params: idParams,
        response: { 200: envelopeOf(departmentView) },
      },
    },
    async (request) => ok(await departments.get(principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/departments/:id',
    {
      onRequest: requirePermission('system:dept:update'),
      schema: {
        tags,
        summary: 'Change a department (partial; no cycles in the tree)',
        params: idParams,
        body: updateDepartmentBody,
        response: { 200: envelopeOf(departmentView) },
      },
    },
    async (request) =>
      ok(await departments.update(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/departments/:id',
    {
      onRequest: requirePermission('system:dept:delete'),
      schema: {
        tags,
        summary: 'Delete a department without sub-departments or members',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await departments.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
