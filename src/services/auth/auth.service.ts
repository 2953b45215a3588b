import type { Logger } from 'pino';
import { passwordProblem, type PasswordHasher } from '../../platform/auth/passwords.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Cache } from '../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import type { AuthUser, UserDirectory } from './auth.ports.js';
import type { CaptchaMode } from './captcha.js';
import {
  loginEventRow,
  recordLoginEvent,
  type LoginEventSink,
  type LoginSubject,
  type LoginType,
  type RequestContext,
} from './login-events.js';
import { accountKey, type LoginThrottle } from './login-throttle.js';
import type { SessionRepo } from './session.repo.js';
import { SessionState } from './session-state.js';
import { SignInChecks, type LoginInput } from './sign-in-checks.js';
import { userViewOf } from './auth.schema.js';
import {
  bearerOf,
  hashRefreshToken,
  newRefreshToken,
  newSessionId,
  type AccessTokens,
} from './tokens.js';

export { DEFAULT_TENANT_CODE } from './sign-in-checks.js';
/** A consumed refresh token seen again after this long is treated as stolen. */
export const REFRESH_REUSE_GRACE_MS = 30_000;
/** While a password change is required, only these requests pass forward-auth. */
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set([
  'GET /api/v1/me',
  'POST /api/v1/me/password',
  'POST /api/v1/logout',
]);

/**
 * The user entry a principal was made from, kept on the principal forward-auth returns. In
 * all-in-one mode that very object reaches the service's routes (handed over in process), and
 * `/me` answers from it instead of reading the entry again; a principal rebuilt from signed
 * headers (over HTTP) has none.
 */
const USER_ENTRY = Symbol('auth.user-entry');
type WithUserEntry = Principal & { [USER_ENTRY]?: AuthUser };

export type { LoginType, RequestContext } from './login-events.js';
export type { LoginInput, SignedIn } from './sign-in-checks.js';

export interface AuthServiceOptions {
  sessions: SessionRepo;
  directory: UserDirectory;
  cache: Cache;
  /** Where a failed sign-in's event is written (the login outbox; a success goes with its session). */
  loginEvents: LoginEventSink;
  tokens: AccessTokens;
  /** The process's argon2 semaphore. */
  passwords: PasswordHasher;
  throttle: LoginThrottle;
  logger: Logger;
  /** Refresh-token lifetime (REFRESH_TOKEN_TTL, default 7 days). */
  refreshTtlMs: number;
  /** Absolute lifetime of a session family (SESSION_MAX_AGE, default 30 days). */
  sessionMaxAgeMs: number;
  /** LOGIN_CAPTCHA: `always`, `after_failures` (default) or `off`. */
  captchaMode: CaptchaMode;
  /** Injected clock (default Date.now). */
  now?: () => number;
  /** Second factor (issue 11): whether the user needs a code and whether `code` is right. */
  secondFactor?: (
    userId: number,
    code: string | undefined,
  ) => Promise<'not_enrolled' | 'ok' | 'missing' | 'wrong'>;
}

export class AuthService {
  private readonly now: () => number;
  private readonly state: SessionState;

  /** The sign-in checks, shared with the OAuth2 sign-in page and external sign-in. */
  readonly checks: SignInChecks;

  constructor(private readonly o: AuthServiceOptions) {
    this.now = o.now ?? Date.now;
    this.state = new SessionState(o);
    this.checks = new SignInChecks(o);
  }

  captcha() {
    return this.checks.captcha();
  }

  /**
   * Password sign-in: the checks of `authenticate`, then a session and its token pair.
   */
  async login(input: LoginInput, ctx: RequestContext) {
    const signedIn = await this.checks.authenticate(input, ctx, 'password');
    return this.openSession(
      signedIn.user,
      signedIn.sessionVersion,
      ctx,
      signedIn.factor === 'ok' ? 'totp' : 'password',
    );
  }

  /**
   * A new session family (random id, absolute end SESSION_MAX_AGE from now) under the session
   * version read with the credentials, its token pair, and the login event.
   */
  private async openSession(
    user: AuthUser,
    userVersion: number,
    ctx: RequestContext,
    loginType: LoginType,
  ) {
    const session = {
      id: newSessionId(),
      userVersion,
      expiresAt: new Date(this.now() + this.o.sessionMaxAgeMs),
    };
    const who = { tenantId: user.tenant_id, userId: user.id, username: user.username };
    const event = loginEventRow({
      success: true,
      reason: null,
      who,
      ctx,
      loginType,
      at: this.now(),
    });
    // The event is written in the session's own transaction: no session without its login log.
    await this.o.sessions.createSession(
      {
        id: session.id,
        tenant_id: user.tenant_id,
        user_id: user.id,
        ip: ctx.ip,
        user_agent: ctx.userAgent,
        device_id: ctx.deviceId,
        user_version: session.userVersion,
        expires_at: session.expiresAt,
      },
      event,
    );
    return this.issueTokens(user, session, null);
  }

  private async requireUser(userId: number): Promise<AuthUser> {
    const user = await this.o.directory.findUser(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
    return user;
  }

  /** A token pair for the session; neither token outlives the session's absolute end. */
  private async issueTokens(
    user: AuthUser,
    session: { id: number; userVersion: number; expiresAt: Date },
    parentId: number | null,
  ) {
    const now = this.now();
    const end = session.expiresAt.getTime();
    const refreshEnd = Math.min(now + this.o.refreshTtlMs, end);
    const refresh = newRefreshToken();
    await this.o.sessions.insertRefreshToken(
      session.id,
      refresh.hash,
      new Date(refreshEnd),
      parentId,
    );
    const accessToken = await this.o.tokens.sign(
      {
        userId: user.id,
        tenantId: user.tenant_id,
        sessionId: session.id,
        sessionVersion: session.userVersion,
      },
      now,
      end,
    );
    return {
      access_token: accessToken,
      refresh_token: refresh.token,
      token_type: 'Bearer' as const,
      expires_in: Math.max(0, Math.round(Math.min(this.o.tokens.ttlMs, end - now) / 1000)),
      refresh_expires_in: Math.round((refreshEnd - now) / 1000),
      user: userViewOf(user),
    };
  }

  /**
   * Rotates a refresh token. Exactly one of several concurrent refreshes wins (conditional
   * UPDATE); the others get 40102 and the winner's session lives on. A token consumed more than
   * 30 s ago coming back means it leaked: the whole session family is revoked.
   */
  async refresh(refreshToken: string) {
    const hash = hashRefreshToken(refreshToken);
    const consumed = await this.o.sessions.consumeRefreshToken(hash);
    if (!consumed) {
      const known = await this.o.sessions.findRefreshToken(hash);
      if (
        known &&
        !known.revoked &&
        known.consumed_at === null &&
        known.expires_at.getTime() <= this.now()
      ) {
        throw new AppError(ERROR_CODES.TOKEN_EXPIRED, 'refresh token expired');
      }
      if (known?.consumed_at && this.now() - known.consumed_at.getTime() > REFRESH_REUSE_GRACE_MS) {
        await this.state.revoke(known.session_id, 'refresh_token_reuse');
        this.o.logger.warn(
          { session_id: known.session_id },
          'refresh token reused: session family revoked',
        );
      }
      throw new AppError(ERROR_CODES.REFRESH_REVOKED);
    }
    const owner = await this.o.sessions.sessionOwner(consumed.session_id);
    // Read past the cache: a password set or an account disabled a moment ago, on any replica,
    // ends the session here at once.
    const user = owner && (await this.o.directory.findUser(owner.user_id, { fresh: true }));
    if (
      !owner ||
      !user ||
      user.status !== 'active' ||
      user.session_version !== owner.user_version
    ) {
      await this.state.revoke(
        consumed.session_id,
        user?.status === 'active' ? 'sessions_ended' : 'user_inactive',
      );
      throw new AppError(ERROR_CODES.REFRESH_REVOKED);
    }
    return this.issueTokens(
      user,
      { id: consumed.session_id, userVersion: owner.user_version, expiresAt: owner.expires_at },
      consumed.id,
    );
  }

  async logout(principal: Principal) {
    await this.state.revoke(principal.sessionId, 'logout');
  }

  /**
   * Forward-auth: signature and expiry of the token, session not revoked, user active, and the
   * password-change gate for the request it is about.
   */
  async verify(
    authorization: string | undefined,
    method: string,
    path: string,
  ): Promise<Principal> {
    const accessToken = bearerOf(authorization);
    if (!accessToken) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
    const claims = await this.o.tokens.verify(accessToken);
    const [active, user] = await Promise.all([
      this.state.isActive(claims.sessionId, claims.userId),
      this.o.directory.findUser(claims.userId),
    ]);
    // The user entry comes from the shared cache (invalidated by identity on every change), so
    // the session-version check costs nothing more than the status check beside it.
    if (
      !active ||
      !user ||
      user.status !== 'active' ||
      user.tenant_id !== claims.tenantId ||
      user.session_version !== claims.sessionVersion
    ) {
      throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'session is no longer valid');
    }
    if (user.must_change_password && !ALLOWED_BEFORE_PASSWORD_CHANGE.has(`${method} ${path}`)) {
      throw new AppError(ERROR_CODES.PASSWORD_CHANGE_REQUIRED);
    }
    const principal: WithUserEntry = {
      userId: user.id,
      tenantId: user.tenant_id,
      username: user.username,
      roles: user.roles,
      deptId: user.dept_id,
      platformAdmin: user.is_platform_admin,
      permissions: user.permissions,
      sessionId: claims.sessionId,
    };
    // Not enumerable: the principal's own fields stay what they were for every other reader.
    Object.defineProperty(principal, USER_ENTRY, { value: user });
    return principal;
  }

  /** The caller as forward-auth saw them in this request, or as the directory has them now. */
  async me(principal: Principal) {
    const entry = (principal as WithUserEntry)[USER_ENTRY];
    return userViewOf(entry ?? (await this.requireUser(principal.userId)));
  }

  /**
   * Changes the caller's password; every other session of theirs is signed out. A wrong old
   * password counts against the account and the IP like a failed sign-in.
   */
  async changePassword(
    principal: Principal,
    oldPassword: string,
    newPassword: string,
    ctx: RequestContext,
  ) {
    const refusal = { field: 'old_password', reason: 'wrong_old_password' };
    await this.confirmPassword(principal, oldPassword, ctx, refusal);
    const problem =
      newPassword === oldPassword
        ? 'must differ from the old password'
        : passwordProblem(newPassword, [principal.username, oldPassword]);
    if (problem) {
      throw AppError.validation([{ field: 'new_password', rule: 'format', message: problem }]);
    }
    await this.o.directory.setPassword(principal.userId, await this.o.passwords.hash(newPassword));
    await this.state.revokeUser(principal.userId, 'password_changed', principal.sessionId);
  }

  /** The caller's password before a change: a wrong one counts like a failed sign-in (40001). */
  async confirmPassword(
    principal: Principal,
    password: string,
    ctx: RequestContext,
    refusal: { field: string; reason: string },
  ) {
    const account = accountKey({ id: principal.tenantId }, principal.username);
    await this.o.throttle.begin(account, ctx.ip);
    const current = await this.o.directory.passwordHashOf(principal.userId);
    if (!current || !(await this.o.passwords.verify(current, password))) {
      await this.publishLogin(
        false,
        refusal.reason,
        { tenantId: principal.tenantId, userId: principal.userId, username: principal.username },
        ctx,
      );
      const message = `${refusal.field.replace('_', ' ')} is wrong`;
      throw AppError.validation([{ field: refusal.field, rule: 'format', message }]);
    }
    await this.o.throttle.succeeded(account, ctx.ip);
  }

  // --- Hooks for external sign-in, password reset and the sessions list (issue 11). ---
  /**
   * A session for a user an external provider vouched for (the caller checked the link), after
   * the user's second factor, as `/login` asks for it.
   */
  async signInWithProvider(
    userId: number,
    loginType: LoginType,
    totpCode: string | undefined,
    ctx: RequestContext,
  ) {
    const signedIn = await this.checks.confirmSecondFactor(userId, totpCode, ctx, loginType);
    return this.openSession(signedIn.user, signedIn.sessionVersion, ctx, loginType);
  }

  /** Signs one session out, effective at once for forward-auth. */
  async signOutSession(sessionId: number, reason: string): Promise<void> {
    await this.state.revoke(sessionId, reason);
  }

  /** Revokes every session of the user but `except`, effective at once for forward-auth. */
  async revokeUserSessions(userId: number, reason: string, except?: number): Promise<void> {
    await this.state.revokeUser(userId, reason, except);
  }

  private publishLogin(
    success: boolean,
    reason: string | null,
    who: LoginSubject,
    ctx: RequestContext,
    loginType: LoginType = 'password',
  ) {
    return recordLoginEvent(this.o, { success, reason, who, ctx, loginType, at: this.now() });
  }
}
