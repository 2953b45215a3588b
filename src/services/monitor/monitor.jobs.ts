import type { JobDeclaration, JobSpec } from '../../platform/jobs/catalogue.js';
import { declaredJob } from '../../platform/jobs/catalogue.js';
import type { Settings } from '../../config/settings.js';
import type { MetricSampler } from './metrics/sampler.js';

/** The monitor's jobs, as its module declares them. */
export const MONITOR_JOBS = {
  metricSampler: {
    name: 'monitor.metric_sampler',
    intervalSetting: 'MONITOR_SAMPLE_INTERVAL',
    intervalMs: (s) => s.monitor.sampleIntervalMs,
    enabled: () => true,
  },
} satisfies Record<string, JobDeclaration>;

/**
 * The metric sampler: one round every MONITOR_SAMPLE_INTERVAL, then `afterRound` (alert
 * evaluation) with the round's time when this replica wrote it.
 */
export function monitorJobs(
  settings: Settings,
  sampler: MetricSampler,
  afterRound: (at: Date) => Promise<void>,
): JobSpec[] {
  return [
    {
      ...declaredJob(MONITOR_JOBS.metricSampler, settings),
      kind: 'periodic',
      // Written under pg_try_advisory_xact_lock, once per half interval whatever the replicas.
      replicaSafety: 'advisory-lock',
      round: async () => {
        const at = await sampler.round();
        if (!at) return 'skipped';
        await afterRound(at);
      },
    },
  ];
}
