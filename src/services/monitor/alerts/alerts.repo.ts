import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { MonitorDb, MonitorTables } from '../monitor.tables.js';

export type RuleRow = Selectable<MonitorTables['mon_alert_rules']>;
export type AlertRow = Selectable<MonitorTables['mon_alerts']>;

export function enabledRules(db: MonitorDb) {
  return db.selectFrom('mon_alert_rules').selectAll().where('enabled', '=', true).execute();
}

export function findRule(db: MonitorDb, ruleId: number) {
  return db.selectFrom('mon_alert_rules').selectAll().where('id', '=', ruleId).executeTakeFirst();
}

export function firingAlerts(db: MonitorDb, kind: AlertRow['kind']) {
  return db
    .selectFrom('mon_alerts')
    .selectAll()
    .where('kind', '=', kind)
    .where('status', '=', 'firing')
    .execute();
}

/** Raises an alert; false when one is already firing for the rule or certificate. */
export async function raiseAlert(
  db: MonitorDb,
  alert: Omit<AlertRow, 'id' | 'status' | 'resolved_at' | 'notified_at'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('mon_alerts')
    .values({ ...alert, status: 'firing' })
    // The partial unique indexes: one firing alert per rule and per certificate.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function resolveAlert(
  db: MonitorDb,
  alertId: number,
  at: Date,
  value?: number | null,
): Promise<void> {
  await db
    .updateTable('mon_alerts')
    .set({ status: 'resolved', resolved_at: at, ...(value !== undefined && { value }) })
    .where('id', '=', alertId)
    .where('status', '=', 'firing')
    .execute();
}

/** The firing alert of a rule resolved (the rule was disabled or deleted). */
export async function resolveRuleAlerts(db: MonitorDb, ruleId: number, at: Date): Promise<void> {
  await db
    .updateTable('mon_alerts')
    .set({ status: 'resolved', resolved_at: at })
    .where('rule_id', '=', ruleId)
    .where('status', '=', 'firing')
    .execute();
}

/** Firing alerts whose recipients have not been told yet. */
export function unnotifiedAlerts(db: MonitorDb) {
  return db
    .selectFrom('mon_alerts')
    .selectAll()
    .where('status', '=', 'firing')
    .where('notified_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Claims an alert's notice (conditional UPDATE): true for exactly one caller. */
export async function claimNotice(db: MonitorDb, alertId: number, at: Date): Promise<boolean> {
  const claimed = await db
    .updateTable('mon_alerts')
    .set({ notified_at: at })
    .where('id', '=', alertId)
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Gives a notice back after a failed delivery: the next round tries again. */
export async function releaseNotice(db: MonitorDb, alertId: number): Promise<void> {
  await db.updateTable('mon_alerts').set({ notified_at: null }).where('id', '=', alertId).execute();
}

export async function listAlerts(
  db: MonitorDb,
  filter: { status?: AlertRow['status']; kind?: AlertRow['kind']; ruleId?: number },
  page: Page,
) {
  let query = db.selectFrom('mon_alerts');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.ruleId !== undefined) query = query.where('rule_id', '=', filter.ruleId);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('fired_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Where a rule's series stands at `at`: its latest sample, and since when the samples breach
 * without a break (null when the latest does not breach).
 */
export async function seriesState(db: MonitorDb, rule: RuleRow, at: Date) {
  const series = db
    .selectFrom('mon_metric_samples')
    .where('metric', '=', rule.metric)
    .where('service', '=', rule.service ?? '')
    .where('sampled_at', '<=', at);
  const breach = rule.operator === 'gt' ? '>' : '<';
  const calm = rule.operator === 'gt' ? '<=' : '>=';
  const latest = await series
    .select(['value', 'sampled_at'])
    .orderBy('sampled_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return { latest: undefined, breachingSince: null };
  const lastCalm = await series
    .select((eb) => eb.fn.max('sampled_at').as('at'))
    .where('value', calm, rule.threshold)
    .executeTakeFirst();
  let streak = series
    .select((eb) => eb.fn.min('sampled_at').as('at'))
    .where('value', breach, rule.threshold);
  if (lastCalm?.at) streak = streak.where('sampled_at', '>', lastCalm.at);
  const since = (await streak.executeTakeFirst())?.at;
  return {
    latest: { value: latest.value, at: new Date(latest.sampled_at) },
    breachingSince: since ? new Date(since) : null,
  };
}
