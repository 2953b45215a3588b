import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { FieldProblem } from '../../../platform/errors.js';
import { AppError } from '../../../platform/errors.js';
import type { Page } from '../../../platform/http/envelope.js';
import { isServiceMetric } from '../metrics/metric-names.js';
import type { MonitorPorts } from '../monitor.ports.js';
import type { MonitorDb } from '../monitor.tables.js';
import { findRule, resolveRuleAlerts, type RuleRow } from './alerts.repo.js';
import type { CreateRuleInput, RuleView, UpdateRuleInput } from './alerts.schema.js';

/** What the body schema cannot see: the service fits the metric and exists. */
function shapeProblems(
  rule: Pick<CreateRuleInput, 'metric' | 'service'>,
  services: readonly string[],
): FieldProblem[] {
  const service = rule.service ?? null;
  if (!isServiceMetric(rule.metric)) {
    return service === null
      ? []
      : [
          {
            field: 'service',
            rule: 'option',
            message: `${rule.metric} is platform-wide: no service`,
          },
        ];
  }
  if (service === null) {
    return [{ field: 'service', rule: 'required', message: `${rule.metric} is per service` }];
  }
  return services.includes(service)
    ? []
    : [{ field: 'service', rule: 'option', message: 'no such service' }];
}

export const toRuleView = (row: RuleRow): RuleView => ({
  id: row.id,
  name: row.name,
  metric: row.metric,
  service: row.service,
  operator: row.operator,
  threshold: row.threshold,
  duration_seconds: row.duration_seconds,
  recipient_user_ids: row.recipient_user_ids,
  enabled: row.enabled,
  created_by: row.created_by,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

/**
 * Alert rules: platform-wide, edited by platform administrators. A rule's recipients are users
 * of one tenant, its creator's; business-audit rows go to the editor's tenant.
 */
export class AlertRulesService {
  constructor(
    private readonly o: {
      db: MonitorDb;
      audit: BusinessAuditWriter;
      ports: Pick<MonitorPorts, 'services' | 'knownUsers'>;
      now: () => Date;
    },
  ) {}

  async list(page: Page): Promise<{ list: RuleView[]; total: number }> {
    const query = this.o.db.selectFrom('mon_alert_rules');
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(page.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { list: rows.map(toRuleView), total: Number(count.n) };
  }

  async get(ruleId: number): Promise<RuleView> {
    const row = await findRule(this.o.db, ruleId);
    if (!row) throw AppError.notFound('alert rule');
    return toRuleView(row);
  }

  async create(principal: Principal, input: CreateRuleInput): Promise<RuleView> {
    const problems = [
      ...shapeProblems(input, this.o.ports.services),
      ...(await this.recipientProblems(principal.tenantId, input.recipient_user_ids)),
    ];
    if (problems.length > 0) throw AppError.validation(problems);
    return inTransaction(this.o.db, async (trx) => {
      const row = await trx
        .insertInto('mon_alert_rules')
        .values({
          tenant_id: principal.tenantId,
          name: input.name,
          metric: input.metric,
          service: input.service ?? null,
          operator: input.operator,
          threshold: input.threshold,
          duration_seconds: input.duration_seconds,
          recipient_user_ids: JSON.stringify([...new Set(input.recipient_user_ids)]),
          enabled: input.enabled ?? true,
          created_by: principal.userId,
          updated_at: this.o.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toRuleView(row);
      await this.audit(
        trx,
        principal,
        'create',
        row.id,
        null,
        after,
        `created alert rule ${row.name}`,
      );
      return after;
    });
  }

  async update(principal: Principal, ruleId: number, input: UpdateRuleInput): Promise<RuleView> {
    // Recipients are looked up before the transaction (the directory uses its own connection);
    // a rule's tenant never changes, so the lookup still holds under the lock.
    const current = await findRule(this.o.db, ruleId);
    if (!current) throw AppError.notFound('alert rule');
    const recipientProblems = input.recipient_user_ids
      ? await this.recipientProblems(current.tenant_id, input.recipient_user_ids)
      : [];
    return inTransaction(this.o.db, async (trx) => {
      const before = await trx
        .selectFrom('mon_alert_rules')
        .selectAll()
        .where('id', '=', ruleId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw AppError.notFound('alert rule');
      const problems = [
        ...shapeProblems({ ...toRuleView(before), ...input }, this.o.ports.services),
        ...recipientProblems,
      ];
      if (problems.length > 0) throw AppError.validation(problems);
      const { recipient_user_ids: recipients, ...rest } = input;
      const row = await trx
        .updateTable('mon_alert_rules')
        .set({
          ...rest,
          ...(recipients && { recipient_user_ids: JSON.stringify([...new Set(recipients)]) }),
          updated_at: this.o.now(),
        })
        .where('id', '=', ruleId)
        .returningAll()
        .executeTakeFirstOrThrow();
      // A disabled rule raises nothing: what it raised is over.
      if (!row.enabled) await resolveRuleAlerts(trx, ruleId, this.o.now());
      const after = toRuleView(row);
      await this.audit(
        trx,
        principal,
        'update',
        ruleId,
        toRuleView(before),
        after,
        `updated alert rule ${row.name}`,
      );
      return after;
    });
  }

  async remove(principal: Principal, ruleId: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await findRule(trx, ruleId);
      if (!before) throw AppError.notFound('alert rule');
      // Its alerts stay as history (rule_id becomes null), none left firing.
      await resolveRuleAlerts(trx, ruleId, this.o.now());
      await trx.deleteFrom('mon_alert_rules').where('id', '=', ruleId).execute();
      const view = toRuleView(before);
      await this.audit(
        trx,
        principal,
        'delete',
        ruleId,
        view,
        null,
        `deleted alert rule ${before.name}`,
      );
    });
  }

  /** The recipients that are no users of the tenant. */
  private async recipientProblems(
    tenantId: number,
    ids: readonly number[],
  ): Promise<FieldProblem[]> {
    const wanted = [...new Set(ids)];
    const known = new Set(await this.o.ports.knownUsers(tenantId, wanted));
    const unknown = wanted.filter((id) => !known.has(id));
    return unknown.length === 0
      ? []
      : [
          {
            field: 'recipient_user_ids',
            rule: 'option',
            message: `no such user: ${unknown.join(', ')}`,
          },
        ];
  }

  private audit(
    trx: MonitorDb,
    principal: Principal,
    action: 'create' | 'update' | 'delete',
    ruleId: number,
    before: unknown,
    after: unknown,
    summary: string,
  ): Promise<void> {
    return this.o.audit.write(trx as never, {
      tenantId: principal.tenantId,
      actorId: principal.userId,
      actorName: principal.username,
      action,
      targetType: 'alert_rule',
      targetIds: [ruleId],
      before,
      after,
      summary,
    });
  }
}
