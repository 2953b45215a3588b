import { duration, optionalText } from '../../config/env-fields.js';
import { defineSettings } from '../../config/slice.js';

/** Every `BPM_CALLBACK_<BIZTYPE>` variable but the token. */
function callbackTargets(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source)
      .filter(
        (entry): entry is [string, string] =>
          entry[0].startsWith('BPM_CALLBACK_') &&
          entry[0] !== 'BPM_CALLBACK_TOKEN' &&
          Boolean(entry[1]),
      )
      .map(([name, value]) => [name.slice('BPM_CALLBACK_'.length), value]),
  );
}

/** The callback variable suffix of a business type: upper-cased, non-alphanumerics as `_`. */
export const callbackSuffix = (bizType: string) => bizType.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * The approval engine's settings. Its outbox's pacing (`BPM_OUTBOX_*`) is the platform's
 * (`settings.outbox`): the audit service's notice outbox runs on it too.
 */
export const bpmSettings = defineSettings({
  env: {
    BPM_INTERNAL_TOKEN: optionalText,
    BPM_CALLBACK_TOKEN: optionalText,
    BPM_TIMEOUT_SCAN_INTERVAL: duration('5m'),
  },
  shape: (env, source) => ({
    internalToken: env.BPM_INTERNAL_TOKEN,
    callbackToken: env.BPM_CALLBACK_TOKEN,
    timeoutScanIntervalMs: env.BPM_TIMEOUT_SCAN_INTERVAL,
    /** BPM_CALLBACK_<BIZTYPE> targets, by upper-cased biz type with non-alphanumerics as `_`. */
    callbacks: callbackTargets(source),
  }),
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    bpm: ReturnType<typeof bpmSettings.shape>;
  }
}
