import { describe, expect, it } from 'vitest';
import { MemoryCache, takeFromBucket } from './cache.js';

describe('token bucket', () => {
  it('allows a burst, then refuses with the time until the next token', () => {
    const buckets = new Map();
    for (let i = 0; i < 5; i++)
      expect(takeFromBucket(buckets, 'ip', 10, 5, 1000).allowed).toBe(true);
    const refused = takeFromBucket(buckets, 'ip', 10, 5, 1000);
    expect(refused).toEqual({ allowed: false, retryAfterMs: 100 });
  });

  it('refills at the average rate and never above the burst', () => {
    const buckets = new Map();
    for (let i = 0; i < 5; i++) takeFromBucket(buckets, 'ip', 10, 5, 0);
    expect(takeFromBucket(buckets, 'ip', 10, 5, 100).allowed).toBe(true);
    expect(takeFromBucket(buckets, 'ip', 10, 5, 100).allowed).toBe(false);
    let allowed = 0;
    for (let i = 0; i < 20; i++)
      if (takeFromBucket(buckets, 'ip', 10, 5, 60_000).allowed) allowed++;
    expect(allowed).toBe(5);
  });

  it('keeps separate buckets per key', () => {
    const buckets = new Map();
    takeFromBucket(buckets, 'a', 1, 1, 0);
    expect(takeFromBucket(buckets, 'a', 1, 1, 0).allowed).toBe(false);
    expect(takeFromBucket(buckets, 'b', 1, 1, 0).allowed).toBe(true);
  });
});

describe('memory cache', () => {
  it('expires entries on the injected clock', async () => {
    let now = 0;
    const cache = new MemoryCache(() => now);
    await cache.set('k', 'v', 1000);
    expect(await cache.get('k')).toBe('v');
    now = 1000;
    expect(await cache.get('k')).toBeNull();
    await cache.close();
  });

  it('sets a key only when absent, and again once it expired', async () => {
    let now = 0;
    const cache = new MemoryCache(() => now);
    expect(await cache.setIfAbsent('nonce', '1', 1000)).toBe(true);
    expect(await cache.setIfAbsent('nonce', '1', 1000)).toBe(false);
    now = 1000;
    expect(await cache.setIfAbsent('nonce', '1', 1000)).toBe(true);
    await cache.close();
  });

  it('hands a taken value out once', async () => {
    const cache = new MemoryCache();
    await cache.set('captcha', 'abcd', 60_000);
    expect(await cache.take('captcha')).toBe('abcd');
    expect(await cache.take('captcha')).toBeNull();
    await cache.close();
  });

  it('counts within a window that starts at the first increment', async () => {
    let now = 0;
    const cache = new MemoryCache(() => now);
    expect(await cache.increment('f', 1000)).toBe(1);
    now = 900;
    expect(await cache.increment('f', 1000)).toBe(2);
    now = 1000;
    expect(await cache.increment('f', 1000)).toBe(1);
    await cache.close();
  });
});
