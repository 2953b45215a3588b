import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.js';
import { DependencyDownError } from '../dependency-errors.js';
import { MemoryCache, openCache, type Cache } from './cache.js';
import { failOpen, failOpenHandler } from './fail-open.js';

/** A cache whose every command fails with `error`. */
function failingCache(error: Error): Cache {
  const fail = () => Promise.reject(error);
  return Object.assign(new MemoryCache(), { get: fail, set: fail, del: fail });
}

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    'info',
    {},
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { lines, logger };
}

describe('failOpen', () => {
  it('reads a miss and skips writes while the cache is down, warning once', async () => {
    const { lines, logger } = capturedLogger();
    const cache = failOpen(
      failingCache(new DependencyDownError('cache', new Error('Command timed out'))),
      logger,
      'session state',
    );
    expect(await cache.get('k')).toBeNull();
    await expect(cache.set('k', 'v', 1000)).resolves.toBeUndefined();
    await expect(cache.del('k')).resolves.toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, dependency: 'cache' });
  });

  it('still throws what is not the cache being down', async () => {
    const { logger } = capturedLogger();
    const cache = failOpen(failingCache(new TypeError('a bug')), logger, 'x');
    await expect(cache.get('k')).rejects.toThrow('a bug');
  });

  it('warns again once the quiet period has passed', () => {
    const { lines, logger } = capturedLogger();
    let now = 0;
    const handler = failOpenHandler(logger, 'rate limit', () => now)(true);
    const down = new DependencyDownError('cache', new Error('x'));
    expect(handler(down)).toBe(true);
    now = 9_999;
    handler(down);
    now = 10_000;
    handler(down);
    expect(lines).toHaveLength(2);
  });
});

describe('the Redis cache when Redis does not answer', () => {
  it('fails within the command timeout, then at once while the circuit is open', async () => {
    const cache = openCache(
      { url: 'redis://127.0.0.1:1', keyPrefix: 't:' },
      createLogger('silent'),
    );
    try {
      let started = performance.now();
      await expect(cache.get('k')).rejects.toBeInstanceOf(DependencyDownError);
      expect(performance.now() - started).toBeLessThan(1500);
      started = performance.now();
      await expect(cache.takeToken('k', 1, 1)).rejects.toBeInstanceOf(DependencyDownError);
      expect(performance.now() - started).toBeLessThan(50);
    } finally {
      await cache.close();
    }
  });
});
