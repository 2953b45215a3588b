/**
 * A service's background work as a typed catalogue: each entry names itself (also its heartbeat
 * in mon_job_heartbeats), the setting that paces it, and why it is safe to run in every replica.
 * `startJobs` (lifecycle.ts) starts and stops them the same way in every mode.
 */

import type { Settings } from '../../config/settings.js';

/** Why running the job in every replica at once is safe. */
export type ReplicaSafety =
  /** Rows are claimed with FOR UPDATE SKIP LOCKED or a conditional UPDATE: one replica per row. */
  | 'row-claims'
  /** A round runs under pg_try_advisory_xact_lock: one replica per round, the others skip. */
  | 'advisory-lock'
  /** A durable stream consumer shared by the replicas: each event goes to one of them. */
  | 'shared-consumer';

interface JobBase {
  /** `<service>.<job>`; the heartbeat's name too. */
  name: string;
  /**
   * The environment setting that paces it, e.g. `BPM_TIMEOUT_SCAN_INTERVAL`; null for a
   * continuous job, which its stream paces.
   */
  intervalSetting: string | null;
  /** That setting's value: the round interval, or the heartbeat period of a continuous job. */
  intervalMs: number;
  replicaSafety: ReplicaSafety;
  /** False when its settings turn it off (it is then not started). */
  enabled: boolean;
}

/** Runs a round every interval, never two at once; the lifecycle reports the heartbeat. */
export interface PeriodicJobSpec extends JobBase {
  kind: 'periodic';
  /**
   * One round. Return `'skipped'` when another replica did the work (no heartbeat), or
   * `'reported'` when the round wrote its own heartbeat (with a message of its own).
   */
  round(): Promise<void | 'skipped' | 'reported'>;
}

/** Runs until stopped (a stream consumer); the lifecycle reports its heartbeat every interval. */
export interface ContinuousJobSpec extends JobBase {
  kind: 'continuous';
  start(): { stop(): Promise<void> };
}

export type JobSpec = PeriodicJobSpec | ContinuousJobSpec;

/**
 * A job as its module declares it, without building it: what the monitor needs to list every
 * job of the platform, including one that has never reported (`ServiceModule.jobs`). The spec
 * a module builds takes its name, setting, interval and switch from here (`declaredJob`), so
 * the two cannot drift.
 */
export interface JobDeclaration {
  name: string;
  intervalSetting: string | null;
  /** The round interval (or a continuous job's heartbeat period) under these settings. */
  intervalMs(settings: Settings): number;
  /** False when these settings turn it off. */
  enabled(settings: Settings): boolean;
}

/** The part of a job spec its declaration fixes. */
export function declaredJob(
  declaration: JobDeclaration,
  settings: Settings,
): Pick<JobBase, 'name' | 'intervalSetting' | 'intervalMs' | 'enabled'> {
  const { name, intervalSetting } = declaration;
  return {
    name,
    intervalSetting,
    intervalMs: declaration.intervalMs(settings),
    enabled: declaration.enabled(settings),
  };
}

/** A job's heartbeat is reported at least this far apart (lifecycle.ts), and stored with it. */
export const MIN_HEARTBEAT_PERIOD_MS = 10_000;

/** The period a job's heartbeat is reported at (and stored as its interval). */
export const heartbeatPeriodMs = (intervalMs: number) =>
  Math.max(intervalMs, MIN_HEARTBEAT_PERIOD_MS);

/** The declared jobs these settings turn on, each with its heartbeat period in seconds. */
export function heartbeatCatalogue(
  declarations: readonly JobDeclaration[],
  settings: Settings,
): { name: string; intervalSeconds: number }[] {
  return declarations
    .filter((job) => job.enabled(settings))
    .map((job) => ({
      name: job.name,
      intervalSeconds: Math.max(1, Math.round(heartbeatPeriodMs(job.intervalMs(settings)) / 1000)),
    }));
}
