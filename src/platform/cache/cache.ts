import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DependencyDownError, dependencyFailureOf } from '../dependency-errors.js';

/**
 * How long one Redis command may take before it fails (a paused or black-holed Redis, or one
 * that is down while the client reconnects): Redis answers in well under a millisecond, so a
 * second means it is not answering, and a request must not wait on it any longer.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * After a command found Redis down or not answering, the next commands fail at once for this
 * long instead of each waiting out its own timeout (a request makes several): callers fail open
 * or answer 503 without a stall, and the first command after it probes Redis again.
 */
export const REDIS_BREAK_MS = 2000;

export interface BucketResult {
  allowed: boolean;
  /** When refused: how long until one token is back. */
  retryAfterMs: number;
}

/** The platform's small cache interface: Redis when configured, process memory otherwise. */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the key only when it is absent (SET NX): true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  del(...keys: string[]): Promise<void>;
  /** Reads and deletes in one step: a value can be taken once (captcha answers). */
  take(key: string): Promise<string | null>;
  /** Adds `by` (default 1) to a counter; the window (TTL) starts with the first increment. */
  increment(key: string, windowMs: number, by?: number): Promise<number>;
  /** Token bucket: refills `ratePerSecond`, holds at most `burst`, one token per call. */
  takeToken(key: string, ratePerSecond: number, burst: number): Promise<BucketResult>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openCache(
  options: { url?: string | undefined; password?: string | undefined; keyPrefix: string },
  logger: Logger,
): Cache {
  if (options.url) return new RedisCache(options.url, options.password, options.keyPrefix, logger);
  logger.warn(
    'REDIS_URL is not set: cache and rate limits live in process memory (single node only)',
  );
  return new MemoryCache();
}

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryCache implements Cache {
  readonly kind = 'memory';
  private readonly entries = new Map<string, Entry>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep() {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // A bucket idle long enough to be full again carries no state.
    for (const [key, bucket] of this.buckets)
      if (now - bucket.at > 60_000) this.buckets.delete(key);
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number) {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.live(key)) return false;
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    return true;
  }

  async del(...keys: string[]) {
    for (const key of keys) this.entries.delete(key);
  }

  async take(key: string) {
    const value = this.live(key)?.value ?? null;
    this.entries.delete(key);
    return value;
  }

  async increment(key: string, windowMs: number, by = 1) {
    const entry = this.live(key);
    const next = (entry ? Number(entry.value) : 0) + by;
    this.entries.set(key, {
      value: String(next),
      expiresAt: entry?.expiresAt ?? this.now() + windowMs,
    });
    return next;
  }

  async takeToken(key: string, ratePerSecond: number, burst: number): Promise<BucketResult> {
    return takeFromBucket(this.buckets, key, ratePerSecond, burst, this.now());
  }

  async ping() {}

  async close() {
    clearInterval(this.sweeper);
  }
}

/** The token-bucket step, shared by the memory cache and its tests. */
export function takeFromBucket(
  buckets: Map<string, { tokens: number; at: number }>,
  key: string,
  ratePerSecond: number,
  burst: number,
  now: number,
): BucketResult {
  const bucket = buckets.get(key) ?? { tokens: burst, at: now };
  const tokens = Math.min(
    burst,
    bucket.tokens + (Math.max(0, now - bucket.at) * ratePerSecond) / 1000,
  );
  if (tokens >= 1) {
    buckets.set(key, { tokens: tokens - 1, at: now });
    return { allowed: true, retryAfterMs: 0 };
  }
  buckets.set(key, { tokens, at: now });
  return { allowed: false, retryAfterMs: Math.ceil(((1 - tokens) * 1000) / ratePerSecond) };
}

// The same bucket in Redis, on the server's clock so every gateway replica agrees.
const TOKEN_BUCKET_LUA = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {allowed, retry}
`;

type RedisWithBucket = Redis & {
  takeToken(key: string, rate: number, burst: number): Promise<[number, number]>;
};

class RedisCache implements Cache {
  readonly kind = 'redis';
  private readonly redis: RedisWithBucket;
  /** Until when commands fail at once (Redis was just found down); see REDIS_BREAK_MS. */
  private brokenUntil = 0;

  constructor(url: string, password: string | undefined, keyPrefix: string, logger: Logger) {
    const redis = new Redis(url, {
      keyPrefix,
      ...(password ? { password } : {}),
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      // The commands issued in one turn of the event loop go out as one pipeline: a request's
      // rate-limit token, session and user entry share one round trip (and concurrent requests
      // share writes) instead of each waiting for its own.
      enableAutoPipelining: true,
    });
    redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
    redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
    this.redis = redis as RedisWithBucket;
  }

  get(key: string) {
    return this.down(() => this.redis.get(key));
  }

  async set(key: string, value: string, ttlMs: number) {
    await this.down(() => this.redis.set(key, value, 'PX', Math.max(1, Math.round(ttlMs))));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    const set = await this.down(() =>
      this.redis.set(key, value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX'),
    );
    return set === 'OK';
  }

  async del(...keys: string[]) {
    if (keys.length > 0) await this.down(() => this.redis.del(...keys));
  }

  take(key: string) {
    return this.down(() => this.redis.getdel(key));
  }

  async increment(key: string, windowMs: number, by = 1) {
    const [[, count]] = (await this.down(() =>
      this.redis.multi().incrby(key, by).pexpire(key, windowMs, 'NX').exec(),
    )) as [[Error | null, number], [Error | null, number]];
    return count;
  }

  async takeToken(key: string, ratePerSecond: number, burst: number): Promise<BucketResult> {
    const [allowed, retry] = await this.down(() => this.redis.takeToken(key, ratePerSecond, burst));
    return { allowed: allowed === 1, retryAfterMs: retry };
  }

  async ping() {
    await this.down(() => this.redis.ping());
  }

  /**
   * Runs a command unless Redis was just found down. A failure of Redis itself (down, paused,
   * timed out) becomes the cache's DependencyDownError (503, or a fail-open caller's fallback)
   * and breaks the circuit for a moment; a command error (a bad script) stays what it is.
   */
  private down<T>(command: () => Promise<T>): Promise<T> {
    if (Date.now() < this.brokenUntil) {
      return Promise.reject(new DependencyDownError('cache', new Error('not answering')));
    }
    return command().catch((err: unknown) => {
      if (!dependencyFailureOf(err, 'cache')) throw err;
      this.brokenUntil = Date.now() + REDIS_BREAK_MS;
      throw new DependencyDownError('cache', err);
    });
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
