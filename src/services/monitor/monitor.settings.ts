import { duration } from '../../config/env-fields.js';
import { defineSettings } from '../../config/slice.js';

/** The monitor service's settings (`MONITOR_*`). */
export const monitorSettings = defineSettings({
  env: { MONITOR_SAMPLE_INTERVAL: duration('60s') },
  shape: (env) => ({
    /** How often the metric sampler runs a round (default 60 s). */
    sampleIntervalMs: env.MONITOR_SAMPLE_INTERVAL,
  }),
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    monitor: ReturnType<typeof monitorSettings.shape>;
  }
}
