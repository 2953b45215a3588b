import type { Cache } from '../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';

/** The captcha's window and the per-IP failure window (API.md: 3 failures in 15 minutes). */
export const RECENT_WINDOW_MS = 15 * 60_000;
/** How long an account's failure streak is remembered without a success. */
const STREAK_WINDOW_MS = 24 * 60 * 60_000;

export interface LoginThrottleOptions {
  cache: Cache;
  /** Failures of one account before every further attempt waits (LOGIN_BACKOFF_AFTER, 5). */
  backoffAfter: number;
  /** The first wait; each further failure doubles it (LOGIN_BACKOFF_BASE, 1 s). */
  backoffBaseMs: number;
  /** The longest wait (LOGIN_BACKOFF_MAX, 15 min). */
  backoffMaxMs: number;
  /** Failures from one IP within 15 minutes before its attempts are refused (100). */
  ipMaxFailures: number;
  /** Injected clock (default Date.now). */
  now?: () => number;
}

/** The throttle's name for an account: the tenant (id, or the code of an unknown one) and username. */
export function accountKey(tenant: { id: number } | string, username: string): string {
  const scope = typeof tenant === 'string' ? `c:${tenant}` : `t:${tenant.id}`;
  return `${scope}:${username.toLowerCase()}`;
}

/** 429 with the seconds to wait, sent as `Retry-After` and in `data.retry_after_seconds`. */
export function rateLimited(waitMs: number, message: string): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(ERROR_CODES.RATE_LIMITED, message, { retry_after_seconds: seconds });
}

/** An account's recent failures, as the captcha rule reads them. */
export interface RecentFailures {
  /** Failures of the account within 15 minutes, from anywhere. */
  account: number;
  /** Failures of the address within 15 minutes, on any account. */
  ip: number;
  /**
   * The account's failure streak from other addresses reached `backoffAfter`: someone elsewhere
   * is guessing, which asks for a captcha instead of locking the owner out.
   */
  spread: boolean;
}

/**
 * Password-guessing throttle. Every attempt counts as a failure before its password is checked
 * (atomic cache increments, shared by replicas through Redis), so a burst of parallel guesses is
 * counted in full; a success then clears the account's counters and takes back only its own
 * count from the IP's. After `backoffAfter` failures of an account *from one address* that
 * address admits one attempt per waiting period, which doubles with every further failure up to
 * `backoffMaxMs`. Failures spread over many addresses lock nobody out: they raise the captcha
 * (see `spread`), so nobody can lock an account they do not sit beside.
 */
export class LoginThrottle {
  private readonly now: () => number;

  constructor(private readonly o: LoginThrottleOptions) {
    this.now = o.now ?? Date.now;
  }

  private keys(account: string, ip: string) {
    const here = `${account}@${ip}`;
    return {
      recent: `auth:fail:user:${account}`,
      ip: `auth:fail:ip:${ip}`,
      streak: `auth:fail:streak:${account}`,
      // The hard backoff is per account and address.
      localStreak: `auth:fail:streak:${here}`,
      gate: `auth:fail:gate:${here}`,
      until: `auth:fail:until:${here}`,
    };
  }

  /** Failures within the captcha window, of the account and of the IP, and whether they spread. */
  async recentFailures(account: string, ip: string): Promise<RecentFailures> {
    const k = this.keys(account, ip);
    const [user, byIp, streak, local] = await Promise.all(
      [k.recent, k.ip, k.streak, k.localStreak].map(async (key) =>
        Number((await this.o.cache.get(key)) ?? 0),
      ),
    );
    return { account: user!, ip: byIp!, spread: streak! - local! >= this.o.backoffAfter };
  }

  /** The wait after the `streak`-th failure of an account (0 while under the threshold). */
  backoffMs(streak: number): number {
    if (streak <= this.o.backoffAfter) return 0;
    const doublings = Math.min(streak - this.o.backoffAfter - 1, 40);
    return Math.min(this.o.backoffMaxMs, this.o.backoffBaseMs * 2 ** doublings);
  }

  /**
   * Counts the attempt as a failure, before any password check. Refuses it (429) while the
   * account waits at this address, when another attempt took this waiting period's one turn, or
   * when the IP is over its limit.
   */
  async begin(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    const until = Number((await this.o.cache.get(k.until)) ?? 0);
    if (until > this.now()) {
      throw rateLimited(until - this.now(), 'too many failed sign-ins for this account');
    }
    const [, byIp, , streak] = await this.count(k, 1);
    if (byIp > this.o.ipMaxFailures) {
      throw rateLimited(RECENT_WINDOW_MS, 'too many failed sign-ins from this address');
    }
    const wait = this.backoffMs(streak);
    if (wait === 0) return;
    // One turn per waiting period: of concurrent attempts, only the first to take it goes on.
    if ((await this.o.cache.increment(k.gate, wait)) !== 1) {
      const held = Number((await this.o.cache.get(k.until)) ?? 0);
      throw rateLimited(
        held > this.now() ? held - this.now() : wait,
        'too many failed sign-ins for this account',
      );
    }
    await this.o.cache.set(k.until, String(this.now() + wait), wait);
  }

  /**
   * The attempt ended without a verdict (the database or another dependency failed before its
   * password or code was checked): its counts are taken back, so an outage locks nobody out.
   */
  async abandoned(account: string, ip: string): Promise<void> {
    await this.count(this.keys(account, ip), -1);
  }

  /** Adds `by` to an attempt's four failure counters: account, IP, streak, streak here. */
  private count(k: ReturnType<LoginThrottle['keys']>, by: number) {
    return Promise.all([
      this.o.cache.increment(k.recent, RECENT_WINDOW_MS, by),
      this.o.cache.increment(k.ip, RECENT_WINDOW_MS, by),
      this.o.cache.increment(k.streak, STREAK_WINDOW_MS, by),
      this.o.cache.increment(k.localStreak, STREAK_WINDOW_MS, by),
    ]);
  }

  /**
   * The password was right: the account starts afresh here; the IP keeps its failures. Another
   * address's hold on the account runs out by itself.
   */
  async succeeded(account: string, ip: string): Promise<void> {
    const k = this.keys(account, ip);
    await Promise.all([
      this.o.cache.del(k.recent, k.streak, k.localStreak, k.gate, k.until),
      this.o.cache.increment(k.ip, RECENT_WINDOW_MS, -1),
    ]);
  }
}
