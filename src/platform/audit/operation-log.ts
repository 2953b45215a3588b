import type { Logger } from 'pino';

/** One API request as the operation log keeps it (bodies already masked and capped). */
export interface OperationLogEntry {
  /**
   * The caller's tenant (from the token, or from the user a sign-in answered with); null for an
   * anonymous request, stored without a tenant (read by platform admins only).
   */
  tenantId: number | null;
  /** True when no principal was established: the username is what the request claimed. */
  anonymous: boolean;
  userId: number | null;
  username: string;
  module: string;
  action: string;
  method: string;
  path: string;
  status: number;
  ip: string;
  userAgent: string;
  latencyMs: number;
  requestId: string;
  requestBody: string | null;
  responseBody: string | null;
  createdAt: Date;
}

/** Writes one batch; the recorder gives up waiting after `writeTimeoutMs`. */
export type OperationLogWriter = (entries: OperationLogEntry[]) => Promise<void>;

export type DropReason = 'buffer_full' | 'write_failed' | 'write_timeout' | 'closed';

/** Counts dropped entries (a prom-client counter with a `reason` label, in practice). */
export type DropCounter = (reason: DropReason, count: number) => void;

export interface OperationLogRecorderOptions {
  write: OperationLogWriter;
  logger: Logger;
  /** Entries waiting to be written; more are dropped and counted. Default 1000. */
  bufferSize?: number;
  /** Rows per INSERT; reaching it triggers a flush at once. Default 100. */
  batchSize?: number;
  /** Flush period. Default 1000 ms (entries are visible well within 5 s). */
  flushIntervalMs?: number;
  /** A batch still unwritten after this is given up and counted. Default 2000 ms. */
  writeTimeoutMs?: number;
  /** Called for every drop, besides the counter the recording app passed. Default: none. */
  onDrop?: DropCounter;
}

interface Pending {
  entry: OperationLogEntry;
  onDrop: DropCounter | undefined;
}

class WriteTimeout extends Error {}

/**
 * The per-process operation-log buffer: `record` never throws, never waits and never touches
 * the database; a timer (or a full batch) writes batches one at a time. A full buffer, a failed
 * write or a write slower than the timeout drops entries and counts them; the request that
 * produced them has already been answered.
 */
export class OperationLogRecorder {
  private readonly queue: Pending[] = [];
  private readonly bufferSize: number;
  private readonly batchSize: number;
  private readonly writeTimeoutMs: number;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: OperationLogRecorderOptions) {
    this.bufferSize = options.bufferSize ?? 1000;
    this.batchSize = options.batchSize ?? 100;
    this.writeTimeoutMs = options.writeTimeoutMs ?? 2000;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Entries waiting to be written. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues one entry; drops it (counted) when the buffer is full or the recorder closed. */
  record(entry: OperationLogEntry, onDrop?: DropCounter): void {
    if (this.closed) return this.drop('closed', [{ entry, onDrop }]);
    if (this.queue.length >= this.bufferSize) return this.drop('buffer_full', [{ entry, onDrop }]);
    this.queue.push({ entry, onDrop });
    if (this.queue.length >= this.batchSize && !this.flushing) void this.flushFullBatches();
  }

  /** Writes everything queued so far, batch by batch; never rejects. */
  flush(): Promise<void> {
    return this.run(() => this.drain(0));
  }

  // Under load only full batches are written between timer ticks: a short write must not turn
  // into many small transactions of the few entries that arrived while it ran.
  private flushFullBatches(): Promise<void> {
    return this.run(() => this.drain(this.batchSize));
  }

  private run(drain: () => Promise<void>): Promise<void> {
    this.flushing ??= drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left (each batch still bounded by the timeout). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    this.closed = true;
    // Entries recorded while the last flush ran.
    if (this.queue.length > 0) await this.drain(0);
  }

  /** Writes batches while at least `atLeast` entries (and at least one) are queued. */
  private async drain(atLeast: number): Promise<void> {
    while (this.queue.length > 0 && this.queue.length >= atLeast) {
      const batch = this.queue.splice(0, this.batchSize);
      await this.writeBatch(batch);
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.options.write(batch.map((p) => p.entry)),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new WriteTimeout()), this.writeTimeoutMs);
        }),
      ]);
    } catch (err) {
      const reason = err instanceof WriteTimeout ? 'write_timeout' : 'write_failed';
      this.options.logger.warn(
        { err: reason === 'write_failed' ? err : undefined, dropped: batch.length, reason },
        'operation log batch dropped',
      );
      this.drop(reason, batch);
    } finally {
      clearTimeout(timeout);
    }
  }

  private drop(reason: DropReason, entries: Pending[]): void {
    try {
      this.options.onDrop?.(reason, entries.length);
      const perCounter = new Map<DropCounter, number>();
      for (const { onDrop } of entries) {
        if (onDrop) perCounter.set(onDrop, (perCounter.get(onDrop) ?? 0) + 1);
      }
      for (const [count, n] of perCounter) count(reason, n);
    } catch (err) {
      this.options.logger.warn({ err }, 'counting dropped operation logs failed');
    }
  }
}
