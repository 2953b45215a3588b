import type { Env } from './settings.js';

/** The monitor service's settings (MONITOR_*). */
export function monitorSettings(env: Env) {
  return {
    /** How often the metric sampler runs a round (MONITOR_SAMPLE_INTERVAL, default 60 s). */
    sampleIntervalMs: env.MONITOR_SAMPLE_INTERVAL,
  };
}
