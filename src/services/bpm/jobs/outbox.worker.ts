import type { Logger } from 'pino';
import { callbackSuffix } from '../../../config/settings.js';
import {
  OutboxDelivery,
  notifyTarget,
  type OutboxDeliveryTuning,
  type OutboxRow,
  type OutboxTarget,
} from '../../../platform/notify/outbox.js';
import type { BpmDb } from '../bpm.tables.js';

export { backoffMs } from '../../../platform/notify/outbox.js';

export interface OutboxOptions extends OutboxDeliveryTuning {
  db: BpmDb;
  logger: Logger;
  /** BPM_CALLBACK_<BIZTYPE> targets by suffix. */
  callbacks: Record<string, string>;
  /** Sent as X-Internal-Token on callbacks when set (BPM_CALLBACK_TOKEN). */
  callbackToken?: string | undefined;
  notify: { enabled: boolean; base?: string | undefined; token?: string | undefined };
}

/**
 * BPM's outbox (bpm_outbox): business callbacks to BPM_CALLBACK_<BIZTYPE> and notifications to
 * NOTIFY_API_BASE, delivered by the platform's outbox loop (at least once, leased, fenced).
 */
export class OutboxWorker {
  private readonly delivery: OutboxDelivery;

  constructor(o: OutboxOptions) {
    const targetOf = (row: OutboxRow): OutboxTarget => {
      if (row.kind !== 'callback') return notifyTarget(o.notify);
      const url = o.callbacks[callbackSuffix(row.target)];
      if (!url) return undefined;
      return { url, headers: o.callbackToken ? { 'x-internal-token': o.callbackToken } : {} };
    };
    this.delivery = new OutboxDelivery({ ...o, table: 'bpm_outbox', targetOf });
  }

  get owner(): string {
    return this.delivery.owner;
  }

  /** One round: claim a batch and deliver it. Returns how many rows were claimed. */
  runOnce(): Promise<number> {
    return this.delivery.runOnce();
  }
}
