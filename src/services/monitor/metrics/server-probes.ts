import { cpus, freemem, totalmem } from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The window host CPU use is measured over, each round. */
const CPU_WINDOW_MS = 250;

function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/** Host CPU busy, percent of all cores, over CPU_WINDOW_MS. */
export async function hostCpuPercent(): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, CPU_WINDOW_MS));
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? (100 * (total - (after.idle - before.idle))) / total : 0;
}

export const hostMemoryPercent = () => (100 * (totalmem() - freemem())) / totalmem();

/** The process's event-loop delay, read and reset once a round. */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });

  constructor() {
    this.histogram.enable();
  }

  /** p99 since the previous read, milliseconds. */
  read(): number {
    const p99 = this.histogram.percentile(99) / 1e6;
    this.histogram.reset();
    return Number.isFinite(p99) ? p99 : 0;
  }

  close(): void {
    this.histogram.disable();
  }
}

/** How long `work` takes, milliseconds; undefined when it fails. */
export async function timed(work: () => Promise<unknown>): Promise<number | undefined> {
  const started = performance.now();
  try {
    await work();
    return performance.now() - started;
  } catch {
    return undefined;
  }
}
