import type { JobSpec } from '../../../platform/jobs/catalogue.js';
import type { Kernel } from '../../../platform/kernel.js';
import type { BpmPorts } from '../bpm.ports.js';
import type { BpmTables } from '../bpm.tables.js';
import { InstanceRunner } from '../runtime/runner.js';
import { OutboxWorker } from './outbox.worker.js';
import { TimeoutScanner } from './timeout.scanner.js';

/** The BPM service's background work: the outbox worker and the timeout scanner. */
export function bpmJobs(
  kernel: Kernel,
  ports: Pick<BpmPorts, 'directoryOf' | 'inbox' | 'renderText'>,
): JobSpec[] {
  const { settings, logger } = kernel;
  const db = kernel.database.db.withTables<BpmTables>();
  const outbox = new OutboxWorker({
    db,
    logger: logger.child({ job: 'bpm.outbox' }),
    callbacks: settings.bpm.callbacks,
    callbackToken: settings.bpm.callbackToken,
    notify: settings.bpm.notify,
    inbox: ports.inbox,
    renderText: ports.renderText,
    ...settings.bpm.outbox,
  });
  const runner = new InstanceRunner({
    db,
    notify: { enabled: settings.bpm.notify.enabled, inbox: ports.inbox !== undefined },
    directoryOf: ports.directoryOf,
  });
  const scanner = new TimeoutScanner({
    db,
    runner,
    logger: logger.child({ job: 'bpm.timeout_scanner' }),
  });
  return [
    {
      kind: 'periodic',
      name: 'bpm.outbox',
      intervalSetting: 'BPM_OUTBOX_POLL_INTERVAL',
      intervalMs: settings.bpm.outbox.pollIntervalMs,
      // Rows claimed with FOR UPDATE SKIP LOCKED under a lease; completion fenced by lease version.
      replicaSafety: 'row-claims',
      enabled: true,
      round: async () => void (await outbox.runOnce()),
    },
    {
      kind: 'periodic',
      name: 'bpm.timeout_scanner',
      intervalSetting: 'BPM_TIMEOUT_SCAN_INTERVAL',
      intervalMs: settings.bpm.timeoutScanIntervalMs,
      // Each task claimed by a conditional UPDATE inside the instance's transaction.
      replicaSafety: 'row-claims',
      enabled: true,
      round: async () => void (await scanner.runOnce()),
    },
  ];
}
