import type { Logger } from 'pino';
import type { Cache } from '../../platform/cache/cache.js';
import { failOpen, type LookasideCache } from '../../platform/cache/fail-open.js';
import type { SessionRepo } from './session.repo.js';

/** Bounds how long a replica may trust a cached "open" after another replica revoked. */
const SESSION_CACHE_TTL_MS = 30_000;

const sessionKey = (sessionId: number) => `auth:session:${sessionId}`;

/**
 * Whether a session is still open, as forward-auth asks on every request: cached (shared
 * through Redis when configured), and marked closed in the cache the moment it is revoked here.
 */
export class SessionState {
  /** Fails open: with the cache down, the database answers (each request reads the session). */
  private readonly cache: LookasideCache;

  constructor(private readonly o: { sessions: SessionRepo; cache: Cache; logger: Logger }) {
    this.cache = failOpen(o.cache, o.logger, 'session state');
  }

  async isActive(sessionId: number, userId: number): Promise<boolean> {
    const cached = await this.cache.get(sessionKey(sessionId));
    if (cached !== null) return cached === String(userId);
    const owner = await this.o.sessions.sessionOwner(sessionId);
    const active = owner !== undefined && !owner.revoked && owner.user_id === userId;
    await this.cache.set(
      sessionKey(sessionId),
      active ? String(userId) : '0',
      SESSION_CACHE_TTL_MS,
    );
    return active;
  }

  async revoke(sessionId: number, reason: string): Promise<void> {
    await this.o.sessions.revokeSession(sessionId, reason);
    await this.markClosed(sessionId);
  }

  /** Revokes every session of the user but `except` (the caller's own, on a password change). */
  async revokeUser(userId: number, reason: string, except?: number): Promise<void> {
    const revoked = await this.o.sessions.revokeUserSessions(userId, reason, except);
    await Promise.all(revoked.map((id) => this.markClosed(id)));
  }

  private markClosed(sessionId: number) {
    return this.cache.set(sessionKey(sessionId), '0', SESSION_CACHE_TTL_MS);
  }
}
