import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../audit.permissions.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import {
  clearLoginLogsQuery,
  clearResultView,
  listLoginLogsQuery,
  loginLogView,
  loginStatsView,
  loginTrendView,
  myLoginLogsQuery,
} from './login-logs.schema.js';
import { LoginLogsService } from './login-logs.service.js';
import type { DatabaseHandle } from '../../../platform/db/database.js';
import type { LoginLogTables } from './login-logs.repo.js';

const tags = ['audit'];
const signedIn = async (request: Parameters<typeof principalOf>[0]) => void principalOf(request);

export function registerLoginLogRoutes(app: HttpApp, db: DatabaseHandle['db']): void {
  const logs = new LoginLogsService({ db: db.withTables<LoginLogTables>() });

  app.get(
    '/api/v1/login-logs',
    {
      onRequest: requirePermission('system:log:login'),
      schema: {
        tags,
        summary: 'Login logs of the tenant, newest first',
        querystring: listLoginLogsQuery,
        response: { 200: envelopeOf(listOf(loginLogView)) },
      },
    },
    async (request) => ok(await logs.list(principalOf(request), request.query)),
  );

  app.get(
    '/api/v1/login-logs/stats',
    {
      onRequest: requirePermission('system:log:login'),
      schema: {
        tags,
        summary: 'Login counts of the tenant',
        response: { 200: envelopeOf(loginStatsView) },
      },
    },
    async (request) => ok(await logs.stats(principalOf(request))),
  );

  app.get(
    '/api/v1/login-logs/trend',
    {
      onRequest: requirePermission('system:log:login'),
      schema: {
        tags,
        summary: '7-day login trend (UTC)',
        response: { 200: envelopeOf(loginTrendView) },
      },
    },
    async (request) => ok(await logs.trend(principalOf(request))),
  );

  app.get(
    '/api/v1/login-logs/my',
    {
      onRequest: signedIn,
      schema: {
        tags,
        summary: "The caller's own login logs",
        querystring: myLoginLogsQuery,
        response: { 200: envelopeOf(listOf(loginLogView)) },
      },
    },
    async (request) => ok(await logs.mine(principalOf(request), request.query)),
  );

  app.get(
    '/api/v1/login-logs/last',
    {
      onRequest: signedIn,
      schema: {
        tags,
        summary: "The caller's successful login before the current one (null if none)",
        response: { 200: envelopeOf(loginLogView.nullable()) },
      },
    },
    async (request) => ok(await logs.last(principalOf(request))),
  );

  app.delete(
    '/api/v1/login-logs/clear',
    {
      onRequest: requirePermission('system:log:login:clear'),
      schema: {
        tags,
        summary: 'Delete the tenant’s login logs older than `days` days (0: all)',
        querystring: clearLoginLogsQuery,
        response: { 200: envelopeOf(clearResultView) },
      },
    },
    async (request) => ok(await logs.clear(principalOf(request), request.query.days)),
  );
}
