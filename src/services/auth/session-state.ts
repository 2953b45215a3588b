import type { Cache } from '../../platform/cache/cache.js';
import type { SessionRepo } from './session.repo.js';

/** Bounds how long a replica may trust a cached "open" after another replica revoked. */
const SESSION_CACHE_TTL_MS = 30_000;

const sessionKey = (sessionId: number) => `auth:session:${sessionId}`;

/**
 * Whether a session is still open, as forward-auth asks on every request: cached (shared
 * through Redis when configured), and marked closed in the cache the moment it is revoked here.
 */
export class SessionState {
  constructor(private readonly o: { sessions: SessionRepo; cache: Cache }) {}

  async isActive(sessionId: number, userId: number): Promise<boolean> {
    const cached = await this.o.cache.get(sessionKey(sessionId));
    if (cached !== null) return cached === String(userId);
    const owner = await this.o.sessions.sessionOwner(sessionId);
    const active = owner !== undefined && !owner.revoked && owner.user_id === userId;
    await this.o.cache.set(
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
    return this.o.cache.set(sessionKey(sessionId), '0', SESSION_CACHE_TTL_MS);
  }
}
