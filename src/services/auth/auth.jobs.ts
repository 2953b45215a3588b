import type { JobDeclaration, JobSpec } from '../../platform/jobs/catalogue.js';
import { declaredJob } from '../../platform/jobs/catalogue.js';
import type { Kernel } from '../../platform/kernel.js';
import type { LoginEventRelay } from './login-outbox.js';

/** The auth service's jobs, as its module declares them (the monitor lists them all). */
export const AUTH_JOBS = {
  loginRelay: {
    name: 'auth.login_relay',
    // Paced like the platform's other outboxes.
    intervalSetting: 'BPM_OUTBOX_POLL_INTERVAL',
    intervalMs: (s) => s.outbox.pollIntervalMs,
    enabled: () => true,
  },
} satisfies Record<string, JobDeclaration>;

/** The login-event relay: auth_login_outbox to the event stream. */
export function authJobs(kernel: Kernel, relay: LoginEventRelay): JobSpec[] {
  return [
    {
      ...declaredJob(AUTH_JOBS.loginRelay, kernel.settings),
      kind: 'periodic',
      // Rows claimed with FOR UPDATE SKIP LOCKED for a while; a publish is idempotent on event id.
      replicaSafety: 'row-claims',
      round: async () => void (await relay.runOnce()),
    },
  ];
}
