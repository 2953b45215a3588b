import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { DirectoryOf } from '../bpm.ports.js';
import {
  departmentView,
  MAX_PEOPLE_IDS,
  PEOPLE_LIMIT,
  peopleQuery,
  personView,
} from './directory.schema.js';

const tags = ['bpm'];

/**
 * The people and departments a form's person and department fields, a stand-in and a hand-over
 * pick from, for every signed-in user of the tenant: names and departments only, never contact
 * details or roles (listing users with those is `system:user:list`).
 */
export function registerDirectoryRoutes(app: HttpApp, directoryOf: DirectoryOf): void {
  app.get(
    '/api/v1/bpm/directory/users',
    {
      schema: {
        tags,
        summary: 'People of the tenant, by keyword or by ids (pickers, names)',
        querystring: peopleQuery,
        response: { 200: envelopeOf(z.array(personView)) },
      },
    },
    async (request) => {
      const { keyword, ids } = request.query;
      const idList = ids === undefined ? undefined : [...new Set(ids.split(',').map(Number))];
      if (
        idList &&
        (idList.length > MAX_PEOPLE_IDS || idList.some((id) => !Number.isSafeInteger(id)))
      )
        throw new AppError(ERROR_CODES.BAD_REQUEST, `at most ${MAX_PEOPLE_IDS} ids`, {
          fields: [{ field: 'ids', rule: 'range', message: `at most ${MAX_PEOPLE_IDS} ids` }],
        });
      const people = await directoryOf(principalOf(request).tenantId).people({
        ...(keyword ? { keyword } : {}),
        ...(idList ? { ids: idList } : {}),
        limit: idList ? MAX_PEOPLE_IDS : PEOPLE_LIMIT,
      });
      return ok(
        people.map((p) => ({
          id: p.id,
          name: p.name,
          dept_id: p.deptId,
          dept_name: p.deptName,
          active: p.active,
        })),
      );
    },
  );
  app.get(
    '/api/v1/bpm/directory/departments',
    {
      schema: {
        tags,
        summary: 'Departments of the tenant (pickers)',
        response: { 200: envelopeOf(z.array(departmentView)) },
      },
    },
    async (request) => {
      const depts = await directoryOf(principalOf(request).tenantId).departmentList();
      return ok(depts.map((d) => ({ id: d.id, name: d.name, parent_id: d.parentId })));
    },
  );
}
