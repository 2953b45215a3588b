import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../audit.permissions.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import {
  clearQuery,
  exportOperationLogsQuery,
  listOperationLogsQuery,
  operationLogItem,
  operationLogStats,
  operationLogView,
  statsQuery,
} from './operation-logs.schema.js';
import { z } from 'zod';
import type { DatabaseHandle } from '../../../platform/db/database.js';
import type { OperationLogTables } from '../../../platform/audit/operation-log-writer.js';
import { OperationLogsService } from './operation-logs.service.js';

const tags = ['audit'];
const READ = 'system:log:operation';

/** The operation-log endpoints over the kernel's database (or a given service, in tests). */
export function registerOperationLogRoutes(
  app: HttpApp,
  source: DatabaseHandle['db'] | OperationLogsService,
): void {
  const logs =
    source instanceof OperationLogsService
      ? source
      : new OperationLogsService({ db: source.withTables<OperationLogTables>() });
  app.get(
    '/api/v1/operation-logs',
    {
      onRequest: requirePermission(READ),
      schema: {
        tags,
        summary: 'Operation logs of the tenant, newest first',
        querystring: listOperationLogsQuery,
        response: { 200: envelopeOf(listOf(operationLogItem)) },
      },
    },
    async (request) => ok(await logs.list(principalOf(request), request.query)),
  );

  app.get(
    '/api/v1/operation-logs/stats',
    {
      onRequest: requirePermission(READ),
      schema: {
        tags,
        summary: 'Totals, errors, latency, and counts by module, status and path',
        querystring: statsQuery,
        response: { 200: envelopeOf(operationLogStats) },
      },
    },
    async (request) => ok(await logs.stats(principalOf(request), request.query)),
  );

  app.get(
    '/api/v1/operation-logs/export',
    {
      onRequest: requirePermission(READ),
      schema: {
        tags,
        summary: 'CSV export (UTF-8 with BOM, header row, at most 50 000 rows, newest first)',
        querystring: exportOperationLogsQuery,
      },
    },
    async (request, reply) => {
      const csv = logs.exportCsv(principalOf(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="operation-logs.csv"')
        .send(csv);
    },
  );

  app.delete(
    '/api/v1/operation-logs/clear',
    {
      onRequest: requirePermission('system:log:operation:clear'),
      schema: {
        tags,
        summary: "Delete the tenant's operation logs older than `days` days",
        querystring: clearQuery,
        response: { 200: envelopeOf(z.object({ deleted: z.number().int() })) },
      },
    },
    async (request) => ok(await logs.clear(principalOf(request), request.query.days)),
  );

  app.get(
    '/api/v1/operation-logs/:id',
    {
      onRequest: requirePermission(READ),
      schema: {
        tags,
        summary: 'One operation log with its masked bodies',
        params: idParams,
        response: { 200: envelopeOf(operationLogView) },
      },
    },
    async (request) => ok(await logs.get(principalOf(request), request.params.id)),
  );
}
