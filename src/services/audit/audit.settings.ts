import { duration, int } from '../../config/env-fields.js';
import { defineSettings } from '../../config/slice.js';

/**
 * The audit service's settings. The business-audit chain's keys are the platform's
 * (`settings.auditChain`): every service writes chained rows through the kernel.
 */
export const auditSettings = defineSettings({
  env: {
    AUDIT_LOG_RETENTION_DAYS: int(0, 0, 36500),
    AUDIT_RETENTION_INTERVAL: duration('1d'),
    AUDIT_LOGIN_ACK_WAIT: duration('30s'),
    AUDIT_LOGIN_RETRY_BACKOFF: duration('1s'),
  },
  shape: (env) => ({
    /** 0 = off; N > 0 prunes operation and login logs older than N days, every interval. */
    retentionDays: env.AUDIT_LOG_RETENTION_DAYS,
    retentionIntervalMs: env.AUDIT_RETENTION_INTERVAL,
    loginAckWaitMs: env.AUDIT_LOGIN_ACK_WAIT,
    loginRetryBackoffMs: env.AUDIT_LOGIN_RETRY_BACKOFF,
  }),
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    audit: ReturnType<typeof auditSettings.shape>;
  }
}
