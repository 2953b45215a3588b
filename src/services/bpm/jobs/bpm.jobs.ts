import {
  declaredJob,
  type JobDeclaration,
  type JobSpec,
} from '../../../platform/jobs/catalogue.js';
import { failOpen } from '../../../platform/cache/fail-open.js';
import type { Kernel } from '../../../platform/kernel.js';
import type { BpmPorts } from '../bpm.ports.js';
import type { BpmTables } from '../bpm.tables.js';
import { AbsenceCache } from '../out-of-office/absence-cache.js';
import { InstanceRunner } from '../runtime/runner.js';
import { OutboxWorker } from './outbox.worker.js';
import { TimeoutScanner } from './timeout.scanner.js';

/** The BPM service's jobs, as its module declares them (the monitor lists them all). */
export const BPM_JOBS = {
  outbox: {
    name: 'bpm.outbox',
    intervalSetting: 'BPM_OUTBOX_POLL_INTERVAL',
    intervalMs: (s) => s.outbox.pollIntervalMs,
    enabled: () => true,
  },
  timeoutScanner: {
    name: 'bpm.timeout_scanner',
    intervalSetting: 'BPM_TIMEOUT_SCAN_INTERVAL',
    intervalMs: (s) => s.bpm.timeoutScanIntervalMs,
    enabled: () => true,
  },
} satisfies Record<string, JobDeclaration>;

/** The BPM service's background work: the outbox worker and the timeout scanner. */
export function bpmJobs(
  kernel: Kernel,
  ports: Pick<BpmPorts, 'directoryOf' | 'filesOf' | 'inbox' | 'renderText'>,
): JobSpec[] {
  const { settings, logger } = kernel;
  const db = kernel.database.db.withTables<BpmTables>();
  const outbox = new OutboxWorker({
    db,
    logger: logger.child({ job: 'bpm.outbox' }),
    callbacks: settings.bpm.callbacks,
    callbackToken: settings.bpm.callbackToken,
    notify: settings.notify,
    inbox: ports.inbox,
    renderText: ports.renderText,
    ...settings.outbox,
    failpoints: kernel.failpoints,
  });
  const runner = new InstanceRunner({
    db,
    failpoints: kernel.failpoints,
    notify: { enabled: settings.notify.enabled, inbox: ports.inbox !== undefined },
    directoryOf: ports.directoryOf,
    filesOf: ports.filesOf,
    // The same cache entries the service's runner reads and its out-of-office routes invalidate.
    absences: new AbsenceCache(failOpen(kernel.cache, logger, 'out-of-office periods')),
  });
  const scanner = new TimeoutScanner({
    db,
    runner,
    logger: logger.child({ job: 'bpm.timeout_scanner' }),
  });
  return [
    {
      ...declaredJob(BPM_JOBS.outbox, settings),
      kind: 'periodic',
      // Rows claimed with FOR UPDATE SKIP LOCKED under a lease; completion fenced by lease version.
      replicaSafety: 'row-claims',
      round: async () => void (await outbox.runOnce()),
    },
    {
      ...declaredJob(BPM_JOBS.timeoutScanner, settings),
      kind: 'periodic',
      // Each task claimed by a conditional UPDATE inside the instance's transaction.
      replicaSafety: 'row-claims',
      round: async () => void (await scanner.runOnce()),
    },
  ];
}
