import type { Logger } from 'pino';
import { logSurvived } from '../dependency-errors.js';

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
  logger: Logger,
): PeriodicJob {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = work()
      .catch((err: Error) => {
        // A dependency down (the database restarting) is expected to pass: one warning line.
        logSurvived(logger, err, { job: name }, 'background job round failed');
      })
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
