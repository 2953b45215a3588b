import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Gauge } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';

/** A full collection, without starting the process with --expose-gc. */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('service metrics', () => {
  it("expose the service's own metrics and the process's, each labelled with the service", async () => {
    const metrics = createMetrics('bpm');
    metrics.counter('bench_things_total', 'things').inc();
    const text = await metrics.exposition();
    expect(text).toContain('bench_things_total{service="bpm"} 1');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="bpm"\} /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{service="bpm"\} /m);
    expect(metrics.contentType).toMatch(/^text\/plain/);
  });

  it('keep the process metrics once per process: two services show the same series, each its own label', async () => {
    const [a, b] = [createMetrics('auth'), createMetrics('files')];
    const [ta, tb] = [await a.exposition(), await b.exposition()];
    const names = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('# TYPE '))
        .sort();
    expect(names(ta)).toEqual(names(tb));
    expect(ta.match(/^# TYPE process_cpu_user_seconds_total /gm)).toHaveLength(1);
    expect(tb).toMatch(/^process_resident_memory_bytes\{service="files"\} /m);
    expect(tb).not.toContain('service="auth"');
  });

  it('let a service registry, and what its gauges read, be collected once nothing uses it', async () => {
    // A database handle stands in for what a gauge's collect reads (the outbox gauges).
    let held: { rows: number } | undefined = { rows: 3 };
    const released = new WeakRef(held);
    (() => {
      const metrics = createMetrics('bpm');
      const database = held;
      new Gauge({
        name: 'bpm_outbox_rows',
        help: 'rows',
        registers: [metrics.registry],
        collect() {
          this.set(database.rows);
        },
      });
    })();
    held = undefined;
    // The next turn: nothing on the stack holds it any more.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(released.deref()).toBeUndefined();
  });
});
