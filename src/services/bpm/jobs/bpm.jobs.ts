import type { Kernel } from '../../../platform/kernel.js';
import type { BpmTables } from '../bpm.tables.js';
import { InstanceRunner } from '../instances/runner.js';
import { OutboxWorker } from './outbox.worker.js';
import { TimeoutScanner } from './timeout.scanner.js';

export interface PeriodicJob {
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs`, never two rounds at once, until stopped; a failed round is
 * logged and the next one runs on time. Replica safety is the work's own (SKIP LOCKED claims).
 */
export function every(
  name: string,
  intervalMs: number,
  work: () => Promise<unknown>,
  kernel: Kernel,
): PeriodicJob {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = work()
      .catch((err: Error) =>
        kernel.logger.error({ job: name, err: err.message }, 'background job round failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

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
    every('bpm.outbox', settings.bpm.outbox.pollIntervalMs, () => outbox.runOnce(), kernel),
    every(
      'bpm.timeout_scanner',
      settings.bpm.timeoutScanIntervalMs,
      () => scanner.runOnce(),
      kernel,
    ),
  ];
  return { stop: async () => void (await Promise.all(jobs.map((j) => j.stop()))) };
}
