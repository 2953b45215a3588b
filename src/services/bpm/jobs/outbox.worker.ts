import type { Logger } from 'pino';
import type { Failpoints } from '../../../platform/failpoints.js';
import { callbackSuffix } from '../bpm.settings.js';
import {
  OutboxDelivery,
  notifyTarget,
  type OutboxDeliveryTuning,
  type OutboxRow,
  type OutboxTarget,
} from '../../../platform/notify/outbox.js';
import type { BpmPorts } from '../bpm.ports.js';
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
  /** The inbox that takes `inbox` rows; unset: such rows are done without a copy. */
  inbox?: BpmPorts['inbox'];
  /** The current text of a notice; unset: the text stored with the row. */
  renderText?: BpmPorts['renderText'];
  /** Fault tests' failpoints (after_2xx_before_mark). */
  failpoints?: Failpoints | undefined;
}

/** The console page of an instance: where a notice about it links to. */
const instanceLink = (instanceId: unknown) => `/instances/${Number(instanceId)}`;

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
    // The notice's text as the template reads now (the stored text when no template is fitted).
    const textOf = async (row: OutboxRow) => {
      const p = row.payload;
      const stored = { title: String(p.title), body: String(p.body) };
      if (!o.renderText) return stored;
      return o.renderText(`bpm.${row.target}`, {
        instance_title: String(p.instance_title ?? ''),
        instance_id: Number(p.instance_id),
      });
    };
    const deliverLocally = (row: OutboxRow) => {
      if (row.kind !== 'inbox') return undefined;
      const inbox = o.inbox;
      if (!inbox) return Promise.resolve();
      return (async () => {
        const p = row.payload;
        await inbox.deliver({
          tenantId: Number(p.tenant_id),
          userIds: (p.user_ids as number[]) ?? [],
          category: `bpm.${row.target}`,
          ...(await textOf(row)),
          link: instanceLink(p.instance_id),
        });
      })();
    };
    const payloadOf = async (row: OutboxRow) =>
      row.kind === 'notification' ? { ...row.payload, ...(await textOf(row)) } : row.payload;
    this.delivery = new OutboxDelivery({
      ...o,
      table: 'bpm_outbox',
      targetOf,
      deliverLocally,
      payloadOf,
    });
  }

  get owner(): string {
    return this.delivery.owner;
  }

  /** One round: claim a batch and deliver it. Returns how many rows were claimed. */
  runOnce(): Promise<number> {
    return this.delivery.runOnce();
  }
}
