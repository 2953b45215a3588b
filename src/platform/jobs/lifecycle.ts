import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { heartbeatPeriodMs, type JobSpec } from './catalogue.js';
import { reportHeartbeat } from './heartbeat.js';
import { every } from './periodic.js';

// A heartbeat at most every 10 s (heartbeatPeriodMs): a job polling every second would otherwise
// write one row a second per replica. The interval reported with it is the larger of the two.

export interface RunningJobs {
  /** The names of the jobs started (enabled ones). */
  names: string[];
  stop(): Promise<void>;
}

export interface JobLifecycleOptions {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  db: Kysely<{}>;
  logger: Logger;
  /** Injected clock (default Date.now). */
  now?: () => number;
  /** Where heartbeats go (default: mon_job_heartbeats in `db`). */
  report?: (beat: Heartbeat) => Promise<void>;
}

export interface Heartbeat {
  name: string;
  intervalMs: number;
  ok: boolean;
  message: string | null;
}

/**
 * Starts every enabled job of a catalogue and reports each one's heartbeat: after a round of a
 * periodic job (`ok`, or `error` with the message), every interval while a continuous one runs.
 * The same code in the all-in-one and the one-service modes.
 */
export function startJobs(jobs: JobSpec[], o: JobLifecycleOptions): RunningJobs {
  const now = o.now ?? Date.now;
  const report = o.report ?? ((beat: Heartbeat) => reportHeartbeat(o.db, beat));
  const stops: Array<() => Promise<void>> = [];
  const names: string[] = [];
  for (const job of jobs) {
    if (!job.enabled) continue;
    names.push(job.name);
    const periodMs = heartbeatPeriodMs(job.intervalMs);
    let lastBeat = -Infinity;
    const beat = async (ok: boolean, message: string | null) => {
      // Errors are reported at once; successes at most once a period.
      if (ok && now() - lastBeat < periodMs) return;
      lastBeat = now();
      await report({ name: job.name, intervalMs: periodMs, ok, message }).catch((err: Error) =>
        o.logger.warn({ job: job.name, err: err.message }, 'job heartbeat not recorded'),
      );
    };
    if (job.kind === 'periodic') {
      const running = every(
        job.name,
        job.intervalMs,
        async () => {
          let outcome;
          try {
            outcome = await job.round();
          } catch (err) {
            await beat(false, (err as Error).message);
            throw err;
          }
          if (outcome === undefined) await beat(true, null);
        },
        o.logger,
      );
      stops.push(() => running.stop());
    } else {
      const running = job.start();
      void beat(true, null);
      const timer = setInterval(() => void beat(true, null), periodMs);
      timer.unref();
      stops.push(async () => {
        clearInterval(timer);
        await running.stop();
      });
    }
  }
  if (names.length > 0) o.logger.info({ jobs: names }, 'background jobs started');
  return {
    names,
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
