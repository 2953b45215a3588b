import type { Logger } from 'pino';
import { DependencyDownError } from '../dependency-errors.js';
import type { Cache } from './cache.js';

/** At most one warning per this long per cache user while the cache is down. */
const WARN_EVERY_MS = 10_000;

/** The parts of the cache a look-aside cache uses: read, fill, invalidate. */
export type LookasideCache = Pick<Cache, 'get' | 'set' | 'del'>;

/**
 * A look-aside cache that fails open: while Redis is down or not answering, a read is a miss
 * (the caller goes to the database) and a write or invalidation is skipped (entries expire on
 * their own TTL, which bounds what a missed invalidation can leave behind). Only cache failures
 * are absorbed; anything else still throws. `what` names the user in the (rate-limited) warning.
 */
export function failOpen(cache: Cache, logger: Logger, what: string): LookasideCache {
  const absorb = failOpenHandler(logger, what);
  return {
    get: (key) => cache.get(key).catch(absorb(null)),
    set: (key, value, ttlMs) => cache.set(key, value, ttlMs).catch(absorb(undefined)),
    del: (...keys) => cache.del(...keys).catch(absorb(undefined)),
  };
}

/**
 * A `.catch` handler factory: a cache failure yields `fallback` (with one warning per 10 s),
 * any other error is rethrown. The rate limiter uses it to let requests through.
 */
export function failOpenHandler(logger: Logger, what: string, now: () => number = Date.now) {
  let warnedAt = -Infinity;
  return <T>(fallback: T) =>
    (err: unknown): T => {
      if (!(err instanceof DependencyDownError)) throw err;
      if (now() - warnedAt >= WARN_EVERY_MS) {
        warnedAt = now();
        logger.warn(
          { dependency: err.dependency, cause: err.message },
          `${what}: cache down, failing open`,
        );
      }
      return fallback;
    };
}
