import type { Logger } from 'pino';
import { request } from 'undici';
import type { MonitorDb } from '../monitor.tables.js';
import { PROBE_TIMEOUT_MS } from '../services/services.probe.js';
import {
  outboxRows,
  requestCounters,
  requestRates,
  type OutboxRows,
  type RequestCounters,
} from './prom-text.js';
import {
  counterStates,
  insertSamples,
  lastRoundAt,
  pruneSamples,
  recordRound,
  saveCounterState,
  tryRoundLock,
  type SampleRow,
} from './samples.repo.js';
import { EventLoopDelay, hostCpuPercent, hostMemoryPercent, timed } from './server-probes.js';

export interface MetricSamplerOptions {
  db: MonitorDb;
  /** A `SELECT 1` round trip. */
  pingDatabase(): Promise<unknown>;
  pingCache(): Promise<unknown>;
  /** The database pool's use (PostgreSQL); undefined on PGlite. */
  poolUse?: (() => { open: number; idle: number; waiting: number }) | undefined;
  services: readonly string[];
  serviceUrl(name: string): string;
  /** MONITOR_SAMPLE_INTERVAL: a replica finding a round younger than half of it skips. */
  intervalMs: number;
  logger: Logger;
  /** Injected clock (default: now). */
  now?: () => Date;
}

/** What the sampler reads from one service's `/metrics`. */
interface Scraped {
  counters: RequestCounters;
  /** Its outboxes' rows, when it has an outbox. */
  outbox: OutboxRows | undefined;
}

/** A service's readings from its `/metrics`; undefined when it has none or does not answer. */
async function scrape(url: string): Promise<Scraped | undefined> {
  try {
    const response = await request(`${url}/metrics`, {
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return undefined;
    return { counters: requestCounters(text), outbox: outboxRows(text) };
  } catch {
    return undefined;
  }
}

/**
 * One sampler round: measures the server, the database and the cache from this process and
 * scrapes every service's `/metrics`, all before any transaction (nothing is held while a
 * service is slow); then, under a transaction-level advisory lock, and only when no replica
 * wrote a round in the last half interval, stores the samples, turns counter deltas into rates
 * against the counters the previous round stored, and prunes samples older than 7 days.
 */
export class MetricSampler {
  private readonly loopDelay = new EventLoopDelay();
  private readonly now: () => Date;

  constructor(private readonly o: MetricSamplerOptions) {
    this.now = o.now ?? (() => new Date());
  }

  /** Returns the round's time when it wrote the round, or undefined when it skipped. */
  async round(): Promise<Date | undefined> {
    const [platform, scraped] = await Promise.all([this.measure(), this.scrapeAll()]);
    const at = this.now();
    return this.o.db.transaction().execute(async (trx) => {
      if (!(await tryRoundLock(trx))) return undefined;
      const last = await lastRoundAt(trx);
      if (last && at.getTime() - last.getTime() < this.o.intervalMs / 2) return undefined;
      const rows = [...platform, ...(await this.serviceSamples(trx, scraped, at))];
      await insertSamples(trx, at, rows);
      await recordRound(trx, at);
      const pruned = await pruneSamples(trx, at);
      this.o.logger.debug({ samples: rows.length, pruned }, 'metric sampler round');
      return at;
    });
  }

  close(): void {
    this.loopDelay.close();
  }

  private async measure(): Promise<SampleRow[]> {
    const sample = (metric: string, value: number | undefined): SampleRow[] =>
      value === undefined ? [] : [{ metric, service: '', value }];
    const [cpu, dbLatency, cacheLatency] = await Promise.all([
      hostCpuPercent(),
      timed(this.o.pingDatabase),
      timed(this.o.pingCache),
    ]);
    const pool = this.o.poolUse?.();
    return [
      ...sample('server.cpu_percent', cpu),
      ...sample('server.memory_percent', hostMemoryPercent()),
      ...sample('server.event_loop_delay_ms', this.loopDelay.read()),
      ...sample('db.latency_ms', dbLatency),
      ...sample('db.pool_in_use', pool && pool.open - pool.idle),
      ...sample('db.pool_waiting', pool?.waiting),
      ...sample('cache.latency_ms', cacheLatency),
    ];
  }

  private async scrapeAll() {
    const scraped = await Promise.all(
      this.o.services.map(async (service) => ({
        service,
        scraped: await scrape(this.o.serviceUrl(service)),
      })),
    );
    return scraped.flatMap((s) => (s.scraped ? [{ service: s.service, ...s.scraped }] : []));
  }

  /**
   * Rates against the stored counters (none on a service's first scrape), and the outbox gauges
   * as read; stores the new counters.
   */
  private async serviceSamples(
    trx: MonitorDb,
    scraped: ({ service: string } & Scraped)[],
    at: Date,
  ): Promise<SampleRow[]> {
    const previous = new Map((await counterStates(trx)).map((s) => [s.service, s]));
    const rows: SampleRow[] = [];
    for (const { service, counters, outbox } of scraped) {
      if (outbox) {
        rows.push(
          { metric: 'service.outbox_pending', service, value: outbox.pending },
          { metric: 'service.outbox_dead', service, value: outbox.dead },
        );
      }
      const before = previous.get(service);
      if (before) {
        const elapsed = (at.getTime() - new Date(before.scraped_at).getTime()) / 1000;
        const { requestRate, errorRate } = requestRates(before, counters, elapsed);
        rows.push(
          { metric: 'service.request_rate', service, value: requestRate },
          { metric: 'service.error_rate', service, value: errorRate },
        );
      }
      await saveCounterState(trx, { service, ...counters, scraped_at: at });
    }
    return rows;
  }
}
