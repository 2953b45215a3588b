import type { Kysely } from 'kysely';
import UAParser from 'ua-parser-js';
import { mayManageUser, type Principal } from '../../../platform/auth/principal.js';
import { AppError } from '../../../platform/errors.js';
import type { AuthUser } from '../auth.ports.js';
import type { AuthTables } from '../auth.tables.js';
import { findLiveSession, listLiveSessions, type SessionRow } from './sessions.repo.js';

export interface SessionsServiceOptions {
  db: Kysely<AuthTables>;
  /** Signs one session out, effective at once for forward-auth (the auth service's port). */
  signOut(sessionId: number, reason: string): Promise<void>;
  /** Ends every OAuth grant of the user (an administrator signed one of their sessions out). */
  endOAuthGrants(userId: number): Promise<void>;
  /** The user directory, read past its cache: whose sessions a caller may see and end. */
  findUser(userId: number, options: { fresh: true }): Promise<AuthUser | undefined>;
  /** Where an address is ("intranet" for private ones), as the login log shows it; never throws. */
  locate(ip: string | null): Promise<string | null>;
}

function describe(row: SessionRow, currentId: number, location: string | null) {
  // ua-parser-js 1.0.x (MIT), as the login log uses.
  const ua = row.user_agent ? new UAParser(row.user_agent.slice(0, 1024)).getResult() : undefined;
  const join = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ') || null;
  return {
    id: row.id,
    current: row.id === currentId,
    ip: row.ip,
    location,
    device_id: row.device_id,
    device: ua ? (join(ua.device.vendor, ua.device.model) ?? ua.device.type ?? null) : null,
    os: ua ? join(ua.os.name, ua.os.version) : null,
    browser: ua ? join(ua.browser.name, ua.browser.major) : null,
    user_agent: row.user_agent,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: new Date(row.last_used_at ?? row.created_at).toISOString(),
  };
}

/** The sessions people can see and end: their own, and (with permission) a user's in the tenant. */
export class SessionsService {
  constructor(private readonly o: SessionsServiceOptions) {}

  private describeAll(rows: SessionRow[], currentId: number) {
    return Promise.all(rows.map(async (r) => describe(r, currentId, await this.o.locate(r.ip))));
  }

  async listOwn(principal: Principal) {
    const rows = await listLiveSessions(this.o.db, principal.tenantId, principal.userId);
    return this.describeAll(rows, principal.sessionId);
  }

  async endOwn(principal: Principal, sessionId: number) {
    const session = await findLiveSession(this.o.db, principal.tenantId, sessionId);
    if (!session || session.userId !== principal.userId) throw AppError.notFound('session');
    await this.o.signOut(sessionId, 'signed_out_by_user');
  }

  /** A user's sessions: none for a user of another tenant or one the caller may not manage. */
  async listOfUser(principal: Principal, userId: number) {
    if (!(await this.mayManage(principal, userId))) return [];
    const rows = await listLiveSessions(this.o.db, principal.tenantId, userId);
    return this.describeAll(rows, principal.sessionId);
  }

  /**
   * Ends a session of a user the caller may manage, and the user's OAuth grants with it: an
   * administrator signing a user out means to cut their access, and a grant belongs to no one
   * session. Any other session is 404, as one of another tenant: the list never shows it, so
   * the answer does not confirm it exists.
   */
  async endAny(principal: Principal, sessionId: number) {
    const session = await findLiveSession(this.o.db, principal.tenantId, sessionId);
    if (!session || !(await this.mayManage(principal, session.userId))) {
      throw AppError.notFound('session');
    }
    await this.o.signOut(sessionId, 'signed_out_by_admin');
    await this.o.endOAuthGrants(session.userId);
  }

  /** The rule of user administration: the user holds nothing the caller does not. */
  private async mayManage(principal: Principal, userId: number) {
    const user = await this.o.findUser(userId, { fresh: true });
    return (
      user !== undefined &&
      user.tenant_id === principal.tenantId &&
      mayManageUser(principal, {
        permissions: user.permissions,
        isPlatformAdmin: user.is_platform_admin,
      })
    );
  }
}
