import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../platform/cache/cache.js';
import { AppError } from '../../platform/errors.js';
import { LoginThrottle } from './login-throttle.js';

function setup(overrides: Partial<ConstructorParameters<typeof LoginThrottle>[0]> = {}) {
  let now = 1_000_000;
  const clock = () => now;
  const cache = new MemoryCache(clock);
  const throttle = new LoginThrottle({
    cache,
    backoffAfter: 3,
    backoffBaseMs: 1000,
    backoffMaxMs: 8000,
    ipMaxFailures: 100,
    now: clock,
    ...overrides,
  });
  return { throttle, cache, advance: (ms: number) => (now += ms) };
}

async function refusal(promise: Promise<unknown>): Promise<AppError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe('login throttle', () => {
  it('doubles the wait after each failure past the threshold, up to the maximum', () => {
    const { throttle } = setup();
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => throttle.backoffMs(n))).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000, 8000,
    ]);
  });

  it('counts an attempt before its password is checked', async () => {
    const { throttle } = setup();
    await throttle.begin('t:1:bob', '10.0.0.1');
    expect(await throttle.recentFailures('t:1:bob', '10.0.0.1')).toEqual({
      account: 1,
      ip: 1,
      spread: false,
    });
  });

  it('admits one attempt per waiting period once past the threshold', async () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 3; i++) await throttle.begin('t:1:bob', '10.0.0.1');
    // The fourth attempt takes the turn (and waits 1 s after it); the fifth is refused.
    expect(await refusal(throttle.begin('t:1:bob', '10.0.0.1'))).toBeUndefined();
    const refused = await refusal(throttle.begin('t:1:bob', '10.0.0.1'));
    expect(refused?.code).toBe(42900);
    expect(refused?.details).toEqual({ retry_after_seconds: 1 });
    advance(1000);
    expect(await refusal(throttle.begin('t:1:bob', '10.0.0.1'))).toBeUndefined();
    // The next wait is twice as long.
    expect((await refusal(throttle.begin('t:1:bob', '10.0.0.1')))?.details).toEqual({
      retry_after_seconds: 2,
    });
    // Other accounts are not affected.
    expect(await refusal(throttle.begin('t:1:eve', '10.0.0.1'))).toBeUndefined();
  });

  it('lets only one of many concurrent attempts past the threshold through', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 3; i++) await throttle.begin('t:1:bob', '10.0.0.1');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => refusal(throttle.begin('t:1:bob', '10.0.0.1'))),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(1);
    expect(results.filter((r) => r?.code === 42900)).toHaveLength(9);
  });

  it('clears the account on success but keeps the IP its failures', async () => {
    const { throttle } = setup();
    await throttle.begin('t:1:bob', '10.0.0.1');
    await throttle.begin('t:1:bob', '10.0.0.1');
    await throttle.begin('t:1:bob', '10.0.0.1');
    await throttle.succeeded('t:1:bob', '10.0.0.1');
    expect(await throttle.recentFailures('t:1:bob', '10.0.0.1')).toEqual({
      account: 0,
      ip: 2,
      spread: false,
    });
    // The streak starts afresh: three more attempts pass without waiting.
    for (let i = 0; i < 3; i++) {
      expect(await refusal(throttle.begin('t:1:bob', '10.0.0.2'))).toBeUndefined();
    }
  });

  it('refuses an IP over its failure limit, whatever the account', async () => {
    const { throttle } = setup({ ipMaxFailures: 2 });
    await throttle.begin('t:1:a', '10.0.0.9');
    await throttle.begin('t:1:b', '10.0.0.9');
    const refused = await refusal(throttle.begin('t:1:c', '10.0.0.9'));
    expect(refused?.code).toBe(42900);
    expect(await refusal(throttle.begin('t:1:c', '10.0.0.8'))).toBeUndefined();
  });

  it('holds an account back only at the address its failures come from', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 4; i++) await throttle.begin('t:1:bob', '10.0.0.1');
    expect((await refusal(throttle.begin('t:1:bob', '10.0.0.1')))?.code).toBe(42900);
    // The owner elsewhere is not locked out by it.
    expect(await refusal(throttle.begin('t:1:bob', '192.0.2.7'))).toBeUndefined();
  });

  it('marks failures spread over many addresses, not those of the asking address', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 3; i++) await throttle.begin('t:1:bob', `10.0.1.${i}`);
    for (let i = 0; i < 3; i++) {
      expect(await refusal(throttle.begin('t:1:bob', `10.0.2.${i}`))).toBeUndefined();
    }
    expect((await throttle.recentFailures('t:1:bob', '192.0.2.7')).spread).toBe(true);
    expect((await throttle.recentFailures('t:1:bob', '10.0.1.0')).spread).toBe(true);
    const { throttle: alone } = setup();
    for (let i = 0; i < 3; i++) await alone.begin('t:1:bob', '10.0.0.1');
    expect((await alone.recentFailures('t:1:bob', '10.0.0.1')).spread).toBe(false);
  });
});
