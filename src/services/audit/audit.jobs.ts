import { every, type PeriodicJob } from '../../platform/jobs/periodic.js';
import type { Kernel } from '../../platform/kernel.js';
import type { ServiceMetrics } from '../../platform/metrics/metrics.js';
import { startLoginLogConsumer } from './login-logs/login-logs.consumer.js';
import { runRetention } from './retention/retention.job.js';

/**
 * The audit service's background work: the login-log consumer and, when on, log retention.
 * With `metrics` (the audit app's), login events that died after their last delivery are
 * counted in `audit_login_events_dead_total`.
 */
export function startAuditJobs(kernel: Kernel, metrics?: ServiceMetrics): PeriodicJob {
  const { retentionDays, retentionIntervalMs, geoOnlineUrl, loginAckWaitMs, loginRetryBackoffMs } =
    kernel.settings.audit;
  const dead = metrics?.counter(
    'audit_login_events_dead_total',
    'Login events not stored after their last delivery (kept in stream_dead_letters)',
  );
  const consumer = startLoginLogConsumer(kernel, {
    geoOnlineUrl,
    ackWaitMs: loginAckWaitMs,
    backoffMs: loginRetryBackoffMs,
    onDead: () => dead?.inc(),
  });
  const retention =
    retentionDays > 0
      ? every(
          'audit.log_retention',
          retentionIntervalMs,
          () =>
            runRetention({
              db: kernel.database.db,
              logger: kernel.logger,
              days: retentionDays,
              intervalMs: retentionIntervalMs,
            }),
          kernel.logger,
        )
      : undefined;
  return {
    async stop() {
      await retention?.stop();
      await consumer.stop();
    },
  };
}
