import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import {
  envelopeOf,
  ok,
  pageQuery,
  pageResult,
  parsePage,
} from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { allow, tags } from '../monitor.routes.js';
import type { MonitorDb } from '../monitor.tables.js';
import { listAlerts, type AlertRow } from './alerts.repo.js';
import {
  alertListEnvelope,
  alertsQuery,
  createRuleBody,
  ruleEnvelope,
  ruleListEnvelope,
  updateRuleBody,
  type AlertView,
} from './alerts.schema.js';
import type { AlertRulesService } from './rules.service.js';

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

const toAlertView = (row: AlertRow): AlertView => ({
  ...row,
  fired_at: iso(row.fired_at)!,
  resolved_at: iso(row.resolved_at),
  notified_at: iso(row.notified_at),
});

const RULES = '/api/v1/monitor/alert-rules';

export function registerAlertRoutes(app: HttpApp, db: MonitorDb, rules: AlertRulesService): void {
  app.get(
    RULES,
    {
      onRequest: allow('monitor:alert:list'),
      schema: {
        tags,
        summary: 'Alert rules, newest first',
        querystring: z.object(pageQuery),
        response: { 200: ruleListEnvelope },
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { list, total } = await rules.list(page);
      return ok(pageResult(list, total, page));
    },
  );
  app.get(
    `${RULES}/:id`,
    {
      onRequest: allow('monitor:alert:list'),
      schema: {
        tags,
        summary: 'One alert rule',
        params: idParams,
        response: { 200: ruleEnvelope },
      },
    },
    async (request) => ok(await rules.get(request.params.id)),
  );
  app.post(
    RULES,
    {
      onRequest: allow('monitor:alert:create'),
      schema: {
        tags,
        summary: 'Create an alert rule (recipients: users of the caller\u2019s tenant)',
        body: createRuleBody,
        response: { 200: ruleEnvelope },
      },
    },
    async (request) => ok(await rules.create(principalOf(request), request.body)),
  );
  app.put(
    `${RULES}/:id`,
    {
      onRequest: allow('monitor:alert:update'),
      schema: {
        tags,
        summary: 'Change an alert rule (partial); disabling it resolves its alert',
        params: idParams,
        body: updateRuleBody,
        response: { 200: ruleEnvelope },
      },
    },
    async (request) =>
      ok(await rules.update(principalOf(request), request.params.id, request.body)),
  );
  app.delete(
    `${RULES}/:id`,
    {
      onRequest: allow('monitor:alert:delete'),
      schema: {
        tags,
        summary: 'Delete an alert rule; its alerts stay, resolved',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await rules.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
  app.get(
    '/api/v1/monitor/alerts',
    {
      onRequest: allow('monitor:alert:list'),
      schema: {
        tags,
        summary: 'Alerts raised by rules and expiring certificates, newest first',
        querystring: alertsQuery,
        response: { 200: alertListEnvelope },
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { status, kind, rule_id } = request.query;
      const { rows, total } = await listAlerts(
        db,
        { status, kind, ...(rule_id !== undefined && { ruleId: Number(rule_id) }) },
        page,
      );
      return ok(pageResult(rows.map(toAlertView), total, page));
    },
  );
}
