import type { Logger } from 'pino';
import type { MonitorPorts } from '../monitor.ports.js';
import type { MonitorDb } from '../monitor.tables.js';
import {
  claimNotice,
  enabledRules,
  findRule,
  firingAlerts,
  raiseAlert,
  releaseNotice,
  resolveAlert,
  seriesState,
  unnotifiedAlerts,
  type AlertRow,
  type RuleRow,
} from './alerts.repo.js';

/** Certificates expiring within this many days raise an alert. */
export const CERTIFICATE_WARNING_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;
/** Where a notice points: the console's alert list. */
const ALERTS_LINK = '/monitor?tab=alerts';

export interface AlertEvaluatorOptions {
  db: MonitorDb;
  ports: Pick<MonitorPorts, 'inbox' | 'certificates' | 'platformAdmins'>;
  logger: Logger;
}

/** Whether a rule's threshold has held for its duration, and the value to show. */
export async function ruleHolds(db: MonitorDb, rule: RuleRow, at: Date) {
  const { latest, breachingSince } = await seriesState(db, rule, at);
  const holds =
    latest !== undefined &&
    breachingSince !== null &&
    latest.at.getTime() - breachingSince.getTime() >= rule.duration_seconds * 1000;
  return { holds, value: latest?.value ?? null };
}

/**
 * Runs after each sampler round (on the replica that wrote it): raises an alert for a rule whose
 * threshold held for its duration (from its first breaching sample to the latest), resolves it
 * once the latest sample no longer breaches, does the same for certificates expiring within 30
 * days, then tells the recipients of every alert not yet notified, once per firing.
 */
export class AlertEvaluator {
  constructor(private readonly o: AlertEvaluatorOptions) {}

  async evaluate(at: Date): Promise<void> {
    await this.evaluateRules(at);
    await this.checkCertificates(at);
    await this.notify(at);
  }

  private async evaluateRules(at: Date): Promise<void> {
    const { db } = this.o;
    const rules = await enabledRules(db);
    const firing = new Map((await firingAlerts(db, 'rule')).map((a) => [a.rule_id, a]));
    for (const rule of rules) {
      const { holds, value } = await ruleHolds(db, rule, at);
      const open = firing.get(rule.id);
      firing.delete(rule.id);
      if (holds && !open) {
        await raiseAlert(db, {
          kind: 'rule',
          rule_id: rule.id,
          certificate_id: null,
          title: rule.name,
          metric: rule.metric,
          service: rule.service,
          value,
          fired_at: at,
        });
      } else if (!holds && open) {
        await resolveAlert(db, open.id, at, value);
      }
    }
    // Left over: alerts of rules disabled or deleted since.
    for (const open of firing.values()) await resolveAlert(db, open.id, at);
  }

  private async checkCertificates(at: Date): Promise<void> {
    let expiring;
    try {
      expiring = await this.o.ports.certificates.expiringWithin(CERTIFICATE_WARNING_DAYS);
    } catch (err) {
      // Unknown is not renewed: keep what is firing, try again next round.
      this.o.logger.warn({ err: (err as Error).message }, 'certificates not checked');
      return;
    }
    const firing = new Map(
      (await firingAlerts(this.o.db, 'certificate_expiry')).map((a) => [a.certificate_id, a]),
    );
    for (const cert of expiring) {
      if (firing.delete(cert.id)) continue;
      const daysLeft = Math.floor((Date.parse(cert.not_after) - at.getTime()) / DAY_MS);
      await raiseAlert(this.o.db, {
        kind: 'certificate_expiry',
        rule_id: null,
        certificate_id: cert.id,
        title: `Certificate ${cert.name} (${cert.subject}) expires ${cert.not_after}`,
        metric: null,
        service: null,
        value: daysLeft,
        fired_at: at,
      });
    }
    // No longer expiring: renewed or removed.
    for (const open of firing.values()) await resolveAlert(this.o.db, open.id, at);
  }

  /** Each alert's notice is claimed before it is sent: once per firing, whatever the replicas. */
  private async notify(at: Date): Promise<void> {
    for (const alert of await unnotifiedAlerts(this.o.db)) {
      if (!(await claimNotice(this.o.db, alert.id, at))) continue;
      try {
        for (const notice of await this.noticesOf(alert)) {
          await this.o.ports.inbox.deliver(notice);
        }
      } catch (err) {
        this.o.logger.warn(
          { alert_id: alert.id, err: (err as Error).message },
          'alert notice not delivered; retried next round',
        );
        await releaseNotice(this.o.db, alert.id);
      }
    }
  }

  private async noticesOf(alert: AlertRow) {
    if (alert.kind === 'certificate_expiry') {
      const admins = await this.o.ports.platformAdmins();
      return admins.map(({ tenantId, userIds }) => ({
        tenantId,
        userIds,
        category: 'certificate_expiry',
        title: alert.title,
        body: `${alert.value} day(s) left. Renew the certificate before it expires.`,
        link: ALERTS_LINK,
      }));
    }
    const rule = alert.rule_id === null ? undefined : await findRule(this.o.db, alert.rule_id);
    if (!rule || rule.recipient_user_ids.length === 0) return [];
    const where = rule.service ? ` of ${rule.service}` : '';
    const side = rule.operator === 'gt' ? 'above' : 'below';
    return [
      {
        tenantId: rule.tenant_id,
        userIds: rule.recipient_user_ids,
        category: 'monitor_alert',
        title: `Alert: ${rule.name}`,
        body:
          `${rule.metric}${where} is ${alert.value}, ${side} ${rule.threshold} ` +
          `for at least ${rule.duration_seconds} s.`,
        link: ALERTS_LINK,
      },
    ];
  }
}
