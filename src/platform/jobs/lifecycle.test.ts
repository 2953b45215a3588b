import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logging/logger.js';
import type { JobSpec } from './catalogue.js';
import { startJobs, type Heartbeat } from './lifecycle.js';

const logger = createLogger('silent');
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const db = {} as Kysely<{}>;

function periodic(
  name: string,
  round: () => Promise<void | 'skipped' | 'reported'>,
  enabled = true,
) {
  return {
    kind: 'periodic',
    name,
    intervalSetting: 'TEST_INTERVAL',
    intervalMs: 1000,
    replicaSafety: 'row-claims',
    enabled,
    round,
  } satisfies JobSpec;
}

describe('job lifecycle', () => {
  let beats: Heartbeat[];
  let clock: number;
  const options = () => ({
    db,
    logger,
    now: () => clock,
    report: async (beat: Heartbeat) => void beats.push(beat),
  });
  beforeEach(() => {
    vi.useFakeTimers();
    beats = [];
    clock = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('runs a periodic job every interval and reports an ok heartbeat at most once a period', async () => {
    let rounds = 0;
    const jobs = startJobs([periodic('t.job', async () => void rounds++)], options());
    for (let i = 0; i < 3; i++) {
      clock += 1000;
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(rounds).toBe(3);
    // Interval 1 s, heartbeat period 10 s: one beat so far, reporting the period.
    expect(beats).toEqual([{ name: 't.job', intervalMs: 10_000, ok: true, message: null }]);
    await jobs.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(rounds).toBe(3);
  });

  it('reports a failed round at once as an error with its message', async () => {
    const jobs = startJobs(
      [periodic('t.fail', async () => Promise.reject(new Error('database away')))],
      options(),
    );
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(beats).toEqual([
      { name: 't.fail', intervalMs: 10_000, ok: false, message: 'database away' },
      { name: 't.fail', intervalMs: 10_000, ok: false, message: 'database away' },
    ]);
    await jobs.stop();
  });

  it('reports nothing for a round another replica did or that reported itself', async () => {
    const jobs = startJobs(
      [periodic('t.skip', async () => 'skipped'), periodic('t.self', async () => 'reported')],
      options(),
    );
    await vi.advanceTimersByTimeAsync(3000);
    expect(beats).toEqual([]);
    await jobs.stop();
  });

  it('starts no disabled job, and names the started ones', async () => {
    let rounds = 0;
    const jobs = startJobs(
      [
        periodic('t.on', async () => void rounds++),
        periodic('t.off', async () => void rounds++, false),
      ],
      options(),
    );
    expect(jobs.names).toEqual(['t.on']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(rounds).toBe(1);
    await jobs.stop();
  });

  it('starts a continuous job, beats while it runs, and stops it', async () => {
    const stop = vi.fn(async () => undefined);
    const jobs = startJobs(
      [
        {
          kind: 'continuous',
          name: 't.consumer',
          intervalSetting: 'TEST_INTERVAL',
          intervalMs: 30_000,
          replicaSafety: 'shared-consumer',
          enabled: true,
          start: () => ({ stop }),
        },
      ],
      options(),
    );
    await vi.advanceTimersByTimeAsync(0);
    clock += 30_000;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beats.map((b) => [b.name, b.ok, b.intervalMs])).toEqual([
      ['t.consumer', true, 30_000],
      ['t.consumer', true, 30_000],
    ]);
    await jobs.stop();
    expect(stop).toHaveBeenCalledOnce();
  });
});
