import { every, type PeriodicJob } from '../../platform/jobs/periodic.js';
import type { Kernel } from '../../platform/kernel.js';
import { startLoginLogConsumer } from './login-logs/login-logs.consumer.js';
import { runRetention } from './retention/retention.job.js';

/** The audit service's background work: the login-log consumer and, when on, log retention. */
export function startAuditJobs(kernel: Kernel): PeriodicJob {
  const { retentionDays, retentionIntervalMs, geoOnlineUrl, loginAckWaitMs, loginRetryBackoffMs } =
    kernel.settings.audit;
  const consumer = startLoginLogConsumer(kernel, {
    geoOnlineUrl,
    ackWaitMs: loginAckWaitMs,
    backoffMs: loginRetryBackoffMs,
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
