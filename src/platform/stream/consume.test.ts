import { describe, expect, it } from 'vitest';
import { redeliveryDelayMs, resolveConsumeOptions } from './consume.js';
import { batches, durableName } from './jetstream-consumer.js';

describe('redelivery', () => {
  it('doubles the delay after each failure, capped at one minute', () => {
    expect([1, 2, 3, 4].map((n) => redeliveryDelayMs(1000, n))).toEqual([1000, 2000, 4000, 8000]);
    expect(redeliveryDelayMs(1000, 20)).toBe(60_000);
  });

  it('defaults to 5 deliveries and a 30 s ack wait', () => {
    expect(resolveConsumeOptions({})).toMatchObject({ maxDeliver: 5, ackWaitMs: 30_000 });
  });
});

describe('durableName', () => {
  it('makes one JetStream-legal durable name per subject', () => {
    expect(durableName('audit_login_logs', 't1.auth.login.success')).toBe(
      'audit_login_logs__t1_auth_login_success',
    );
  });
});

describe('batches', () => {
  /** An async source whose items arrive in bursts, like a client buffer of pulled messages. */
  async function* bursts(groups: number[][]) {
    for (const group of groups) {
      await new Promise((r) => setTimeout(r, 20));
      yield* group;
    }
  }

  it('groups what has already arrived, up to the maximum, without waiting for more', async () => {
    const seen: number[][] = [];
    for await (const batch of batches(bursts([[1, 2, 3, 4, 5], [6], [7, 8]]), 3)) seen.push(batch);
    expect(seen).toEqual([[1, 2, 3], [4, 5], [6], [7, 8]]);
  });

  it('ends with the source', async () => {
    const seen: number[][] = [];
    for await (const batch of batches(bursts([]), 3)) seen.push(batch);
    expect(seen).toEqual([]);
  });
});
