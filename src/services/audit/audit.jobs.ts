import { declaredJob, type JobDeclaration, type JobSpec } from '../../platform/jobs/catalogue.js';
import type { Kernel } from '../../platform/kernel.js';
import type { ServiceMetrics } from '../../platform/metrics/metrics.js';
import type { AuditTables } from '../../platform/audit/business-audit.js';
import { checkpointRound } from './business-audit/checkpoints.js';
import { OutboxDelivery, notifyTarget, type OutboxRow } from '../../platform/notify/outbox.js';
import type { AuditPorts } from './audit.ports.js';
import { startLoginLogConsumer } from './login-logs/login-logs.consumer.js';
import { runRetention } from './retention/retention.job.js';

/** How often the running login-event consumer reports its heartbeat. */
const CONSUMER_HEARTBEAT_MS = 30_000;

const always = () => true;

/** The audit service's jobs, as its module declares them (the monitor lists them all). */
export const AUDIT_JOBS = {
  loginConsumer: {
    name: 'audit.login_consumer',
    // Paced by the stream (AUDIT_LOGIN_ACK_WAIT, AUDIT_LOGIN_RETRY_BACKOFF); beats every 30 s.
    intervalSetting: null,
    intervalMs: () => CONSUMER_HEARTBEAT_MS,
    enabled: always,
  },
  notifyOutbox: {
    name: 'audit.notify_outbox',
    intervalSetting: 'BPM_OUTBOX_POLL_INTERVAL',
    intervalMs: (s) => s.outbox.pollIntervalMs,
    enabled: always,
  },
  logRetention: {
    name: 'audit.log_retention',
    intervalSetting: 'AUDIT_RETENTION_INTERVAL',
    intervalMs: (s) => s.audit.retentionIntervalMs,
    enabled: (s) => s.audit.retentionDays > 0,
  },
  chainCheckpoint: {
    name: 'audit.chain_checkpoint',
    intervalSetting: 'AUDIT_CHECKPOINT_INTERVAL',
    intervalMs: (s) => s.auditChain.checkpointIntervalMs,
    enabled: always,
  },
} satisfies Record<string, JobDeclaration>;

/** Where the user's sessions are listed: where a new-device notice links to. */
const SESSIONS_LINK = '/profile';

/** The device a new-device notice names: browser on OS (location), as its built-in text does. */
function deviceOf(p: Record<string, unknown>): string {
  const parts = [p.browser, p.os && `on ${String(p.os)}`, p.location && `(${String(p.location)})`];
  return parts.filter(Boolean).join(' ') || 'an unknown device';
}

/**
 * Delivers audit_notify_outbox (new-device notices): `notification` rows to NOTIFY_API_BASE as
 * BPM's outbox does, `inbox` rows to the in-app inbox; each with the template's current text.
 */
function newDeviceNoticeJob(kernel: Kernel, ports: AuditPorts): JobSpec {
  const { notify } = kernel.settings;
  const textOf = async (row: OutboxRow) => {
    const p = row.payload;
    if (!ports.renderText) return { title: String(p.title), body: String(p.body) };
    return ports.renderText('security.new_device', {
      device: deviceOf(p),
      ip: String(p.ip ?? 'unknown'),
    });
  };
  const deliverLocally = (row: OutboxRow) => {
    if (row.kind !== 'inbox') return undefined;
    const inbox = ports.inbox;
    if (!inbox) return Promise.resolve();
    return (async () =>
      inbox.deliver({
        tenantId: Number(row.payload.tenant_id),
        userIds: (row.payload.user_ids as number[]) ?? [],
        category: 'security.new_device',
        ...(await textOf(row)),
        link: SESSIONS_LINK,
      }))();
  };
  const delivery = new OutboxDelivery({
    db: kernel.database.db,
    table: 'audit_notify_outbox',
    logger: kernel.logger.child({ job: 'audit.notify_outbox' }),
    targetOf: () => notifyTarget(notify),
    deliverLocally,
    payloadOf: async (row) => ({ ...row.payload, ...(await textOf(row)) }),
    ...kernel.settings.outbox,
  });
  return {
    ...declaredJob(AUDIT_JOBS.notifyOutbox, kernel.settings),
    kind: 'periodic',
    // Rows claimed with FOR UPDATE SKIP LOCKED under a lease; completion fenced by lease version.
    replicaSafety: 'row-claims',
    round: async () => void (await delivery.runOnce()),
  };
}

/**
 * The audit service's background work: the login-log consumer, the new-device notice outbox,
 * signed chain checkpoints and, when on, log retention.
 * With `metrics` (the audit app's), login events that died after their last delivery are
 * counted in `audit_login_events_dead_total`.
 */
export function auditJobs(kernel: Kernel, ports: AuditPorts, metrics?: ServiceMetrics): JobSpec[] {
  const { retentionDays, retentionIntervalMs, loginAckWaitMs, loginRetryBackoffMs } =
    kernel.settings.audit;
  const { geoOnlineUrl } = kernel.settings;
  const chain = kernel.settings.auditChain;
  const dead = metrics?.counter(
    'audit_login_events_dead_total',
    'Login events not stored after their last delivery (kept in stream_dead_letters)',
  );
  return [
    {
      ...declaredJob(AUDIT_JOBS.loginConsumer, kernel.settings),
      kind: 'continuous',
      // One durable consumer shared by every replica: each event is delivered to one of them.
      replicaSafety: 'shared-consumer',
      start: () =>
        startLoginLogConsumer(kernel, {
          geoOnlineUrl,
          ackWaitMs: loginAckWaitMs,
          backoffMs: loginRetryBackoffMs,
          onDead: () => dead?.inc(),
          newDeviceNotices: {
            notify: kernel.settings.notify.enabled,
            inbox: ports.inbox !== undefined,
          },
        }),
    },
    newDeviceNoticeJob(kernel, ports),
    {
      ...declaredJob(AUDIT_JOBS.logRetention, kernel.settings),
      kind: 'periodic',
      replicaSafety: 'advisory-lock',
      // The round writes its own heartbeat, with the rows deleted as its message.
      round: async () => {
        const deleted = await runRetention({
          db: kernel.database.db,
          logger: kernel.logger,
          days: retentionDays,
          intervalMs: retentionIntervalMs,
        });
        return deleted ? 'reported' : 'skipped';
      },
    },
    {
      ...declaredJob(AUDIT_JOBS.chainCheckpoint, kernel.settings),
      kind: 'periodic',
      replicaSafety: 'advisory-lock',
      // Signs every tenant's chain head; the round writes its own heartbeat.
      round: () =>
        checkpointRound({
          db: kernel.database.db.withTables<AuditTables>(),
          key: chain.checkpointKey,
          file: chain.checkpointFile,
          logger: kernel.logger,
          intervalMs: chain.checkpointIntervalMs,
        }),
    },
  ];
}
