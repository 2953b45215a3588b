import { every, type PeriodicJob } from '../../../platform/jobs/periodic.js';
import type { Kernel } from '../../../platform/kernel.js';
import type { BpmTables } from '../bpm.tables.js';
import { InstanceRunner } from '../instances/runner.js';
import { OutboxWorker } from './outbox.worker.js';
import { TimeoutScanner } from './timeout.scanner.js';

/** The BPM service's background work: the outbox worker and the timeout scanner. */
export function startBpmJobs(kernel: Kernel): PeriodicJob {
  const { settings, logger } = kernel;
  const db = kernel.database.db.withTables<BpmTables>();
  const outbox = new OutboxWorker({
    db,
    logger: logger.child({ job: 'bpm.outbox' }),
    callbacks: settings.bpm.callbacks,
    callbackToken: settings.bpm.callbackToken,
    notify: settings.bpm.notify,
    ...settings.bpm.outbox,
  });
  const runner = new InstanceRunner({ db, notify: settings.bpm.notify });
  const scanner = new TimeoutScanner({
    db,
    runner,
    logger: logger.child({ job: 'bpm.timeout_scanner' }),
  });
  const jobs = [
    every('bpm.outbox', settings.bpm.outbox.pollIntervalMs, () => outbox.runOnce(), logger),
    every(
      'bpm.timeout_scanner',
      settings.bpm.timeoutScanIntervalMs,
      () => scanner.runOnce(),
      logger,
    ),
  ];
  return { stop: async () => void (await Promise.all(jobs.map((j) => j.stop()))) };
}
