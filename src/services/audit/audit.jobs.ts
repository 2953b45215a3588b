import { declaredJob, type JobDeclaration, type JobSpec } from '../../platform/jobs/catalogue.js';
import type { Kernel } from '../../platform/kernel.js';
import type { ServiceMetrics } from '../../platform/metrics/metrics.js';
import type { AuditTables } from '../../platform/audit/business-audit.js';
import { checkpointRound } from './business-audit/checkpoints.js';
import { OutboxDelivery, notifyTarget } from '../../platform/notify/outbox.js';
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
    intervalMs: (s) => s.notify.outbox.pollIntervalMs,
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
    intervalMs: (s) => s.audit.chain.checkpointIntervalMs,
    enabled: always,
  },
} satisfies Record<string, JobDeclaration>;

/** Delivers audit_notify_outbox (new-device notices) to NOTIFY_API_BASE, as BPM's outbox does. */
function newDeviceNoticeJob(kernel: Kernel): JobSpec {
  const { notify } = kernel.settings;
  const delivery = new OutboxDelivery({
    db: kernel.database.db,
    table: 'audit_notify_outbox',
    logger: kernel.logger.child({ job: 'audit.notify_outbox' }),
    targetOf: () => notifyTarget(notify),
    ...notify.outbox,
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
export function auditJobs(kernel: Kernel, metrics?: ServiceMetrics): JobSpec[] {
  const { retentionDays, retentionIntervalMs, geoOnlineUrl, loginAckWaitMs, loginRetryBackoffMs } =
    kernel.settings.audit;
  const chain = kernel.settings.audit.chain;
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
          newDeviceNotices: kernel.settings.notify.enabled,
        }),
    },
    newDeviceNoticeJob(kernel),
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
