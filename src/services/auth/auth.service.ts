import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import svgCaptcha from 'svg-captcha';
import { isWeakSecret } from '../../config/secrets.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Cache } from '../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../platform/http/errors.js';
import { publishBestEffort, type EventStream } from '../../platform/stream/stream.js';
import type { DirectoryUser, IdentityDirectory } from '../identity/directory.js';
import type { SessionRepo } from './session.repo.js';
import { bearerOf, hashRefreshToken, newRefreshToken, type AccessTokens } from './tokens.js';

export const DEFAULT_TENANT_CODE = 'default';
const CAPTCHA_TTL_MS = 5 * 60_000;
const FAILURE_WINDOW_MS = 15 * 60_000;
const FAILURES_BEFORE_CAPTCHA = 3;
/** A consumed refresh token seen again after this long is treated as stolen. */
export const REFRESH_REUSE_GRACE_MS = 30_000;
const SESSION_CACHE_TTL_MS = 30_000;
/** While a password change is required, only these requests pass forward-auth. */
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set([
  'GET /api/v1/me',
  'POST /api/v1/me/password',
  'POST /api/v1/logout',
]);

export interface RequestContext {
  ip: string;
  userAgent: string | null;
  deviceId: string | null;
  requestId: string;
}

export interface LoginInput {
  username: string;
  password: string;
  tenant_code?: string | undefined;
  captcha_id?: string | undefined;
  captcha?: string | undefined;
}

export interface AuthServiceOptions {
  sessions: SessionRepo;
  directory: IdentityDirectory;
  cache: Cache;
  stream: EventStream;
  tokens: AccessTokens;
  logger: Logger;
  /** Refresh-token lifetime (REFRESH_TOKEN_TTL, default 7 days). */
  refreshTtlMs: number;
  /** LOGIN_CAPTCHA: `always`, `after_failures` (default) or `off`. */
  captchaMode: 'always' | 'after_failures' | 'off';
  /** Injected clock (default Date.now). */
  now?: () => number;
}

const sessionKey = (sessionId: number) => `auth:session:${sessionId}`;

export function userView(user: DirectoryUser) {
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    tenant_id: user.tenant_id,
    dept_id: user.dept_id,
    roles: user.roles,
    permissions: user.permissions,
    is_platform_admin: user.is_platform_admin,
    must_change_password: user.must_change_password,
  };
}

export class AuthService {
  private readonly now: () => number;

  constructor(private readonly o: AuthServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  async captcha() {
    const captcha = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0o1il' });
    const id = randomUUID();
    await this.o.cache.set(`auth:captcha:${id}`, captcha.text.toLowerCase(), CAPTCHA_TTL_MS);
    return {
      captcha_id: id,
      image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}`,
    };
  }

  private failureKeys(tenantCode: string, username: string, ip: string) {
    return [`auth:fail:user:${tenantCode}:${username.toLowerCase()}`, `auth:fail:ip:${ip}`];
  }

  private async checkCaptcha(input: LoginInput, keys: string[]) {
    if (this.o.captchaMode === 'off') return;
    if (this.o.captchaMode === 'after_failures') {
      const counts = await Promise.all(keys.map((k) => this.o.cache.get(k)));
      if (counts.every((c) => Number(c ?? 0) < FAILURES_BEFORE_CAPTCHA)) return;
    }
    const problem = (message: string, rule: 'required' | 'format') =>
      AppError.validation([{ field: 'captcha', rule, message }], message);
    if (!input.captcha_id || !input.captcha) throw problem('captcha required', 'required');
    // Taken, not read: an answer works once.
    const answer = await this.o.cache.take(`auth:captcha:${input.captcha_id}`);
    if (answer === null || answer !== input.captcha.trim().toLowerCase()) {
      throw problem('captcha is wrong or expired', 'format');
    }
  }

  async login(input: LoginInput, ctx: RequestContext) {
    const tenantCode = input.tenant_code || DEFAULT_TENANT_CODE;
    const failureKeys = this.failureKeys(tenantCode, input.username, ctx.ip);
    await this.checkCaptcha(input, failureKeys);

    const fail = async (reason: string, tenantId: number | null, userId: number | null) => {
      await Promise.all(failureKeys.map((k) => this.o.cache.increment(k, FAILURE_WINDOW_MS)));
      this.publishLogin(false, reason, { tenantId, userId, username: input.username }, ctx);
      return new AppError(ERROR_CODES.BAD_CREDENTIALS);
    };

    const tenant = await this.o.directory.findTenant(tenantCode);
    const credentials =
      tenant && (await this.o.directory.findCredentials(tenant.id, input.username));
    if (!tenant || !credentials) {
      await burnPasswordCheck(input.password);
      throw await fail(tenant ? 'unknown_user' : 'unknown_tenant', tenant?.id ?? null, null);
    }
    if (!(await verifyPassword(credentials.password_hash, input.password))) {
      throw await fail('wrong_password', tenant.id, credentials.id);
    }
    if (tenant.status !== 'active' || credentials.status !== 'active') {
      const reason = tenant.status !== 'active' ? 'tenant_disabled' : 'user_disabled';
      this.publishLogin(
        false,
        reason,
        { tenantId: tenant.id, userId: credentials.id, username: input.username },
        ctx,
      );
      throw new AppError(ERROR_CODES.FORBIDDEN, 'account disabled');
    }
    await this.o.cache.del(...failureKeys);

    const user = await this.requireUser(credentials.id);
    const sessionId = await this.o.sessions.createSession({
      tenant_id: user.tenant_id,
      user_id: user.id,
      ip: ctx.ip,
      user_agent: ctx.userAgent,
      device_id: ctx.deviceId,
    });
    const pair = await this.issueTokens(user, sessionId, null);
    this.publishLogin(
      true,
      null,
      { tenantId: user.tenant_id, userId: user.id, username: user.username },
      ctx,
    );
    return pair;
  }

  private async requireUser(userId: number): Promise<DirectoryUser> {
    const user = await this.o.directory.findUser(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
    return user;
  }

  private async issueTokens(user: DirectoryUser, sessionId: number, parentId: number | null) {
    const refresh = newRefreshToken();
    await this.o.sessions.insertRefreshToken(
      sessionId,
      refresh.hash,
      new Date(this.now() + this.o.refreshTtlMs),
      parentId,
    );
    const accessToken = await this.o.tokens.sign(
      { userId: user.id, tenantId: user.tenant_id, sessionId },
      this.now(),
    );
    return {
      access_token: accessToken,
      refresh_token: refresh.token,
      token_type: 'Bearer' as const,
      expires_in: Math.round(this.o.tokens.ttlMs / 1000),
      refresh_expires_in: Math.round(this.o.refreshTtlMs / 1000),
      user: userView(user),
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
        await this.revoke(known.session_id, 'refresh_token_reuse');
        this.o.logger.warn(
          { session_id: known.session_id },
          'refresh token reused: session family revoked',
        );
      }
      throw new AppError(ERROR_CODES.REFRESH_REVOKED);
    }
    const owner = await this.o.sessions.sessionOwner(consumed.session_id);
    const user = owner && (await this.o.directory.findUser(owner.user_id));
    if (!user || user.status !== 'active') {
      await this.revoke(consumed.session_id, 'user_inactive');
      throw new AppError(ERROR_CODES.REFRESH_REVOKED);
    }
    return this.issueTokens(user, consumed.session_id, consumed.id);
  }

  async logout(principal: Principal) {
    await this.revoke(principal.sessionId, 'logout');
  }

  private async revoke(sessionId: number, reason: string) {
    await this.o.sessions.revokeSession(sessionId, reason);
    await this.o.cache.set(sessionKey(sessionId), '0', SESSION_CACHE_TTL_MS);
  }

  private async sessionActive(sessionId: number, userId: number): Promise<boolean> {
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
      this.sessionActive(claims.sessionId, claims.userId),
      this.o.directory.findUser(claims.userId),
    ]);
    if (!active || !user || user.status !== 'active' || user.tenant_id !== claims.tenantId) {
      throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'session is no longer valid');
    }
    if (user.must_change_password && !ALLOWED_BEFORE_PASSWORD_CHANGE.has(`${method} ${path}`)) {
      throw new AppError(ERROR_CODES.PASSWORD_CHANGE_REQUIRED);
    }
    return {
      userId: user.id,
      tenantId: user.tenant_id,
      username: user.username,
      roles: user.roles,
      deptId: user.dept_id,
      platformAdmin: user.is_platform_admin,
      permissions: user.permissions,
      sessionId: claims.sessionId,
    };
  }

  async me(principal: Principal) {
    return userView(await this.requireUser(principal.userId));
  }

  /** Changes the caller's password; every other session of theirs is signed out. */
  async changePassword(principal: Principal, oldPassword: string, newPassword: string) {
    const current = await this.o.directory.passwordHashOf(principal.userId);
    if (!current || !(await verifyPassword(current, oldPassword))) {
      throw AppError.validation([
        { field: 'old_password', rule: 'format', message: 'old password is wrong' },
      ]);
    }
    if (newPassword === oldPassword || isWeakSecret(newPassword)) {
      throw AppError.validation([
        {
          field: 'new_password',
          rule: 'format',
          message: 'choose a new password that is not weak or reused',
        },
      ]);
    }
    await this.o.directory.setPassword(principal.userId, await hashPassword(newPassword));
    const revoked = await this.o.sessions.revokeUserSessions(
      principal.userId,
      'password_changed',
      principal.sessionId,
    );
    await Promise.all(
      revoked.map((id) => this.o.cache.set(sessionKey(id), '0', SESSION_CACHE_TTL_MS)),
    );
  }

  private publishLogin(
    success: boolean,
    reason: string | null,
    who: { tenantId: number | null; userId: number | null; username: string },
    ctx: RequestContext,
  ) {
    const eventId = randomUUID();
    const event = success ? 'auth.login.success' : 'auth.login.failed';
    publishBestEffort(
      this.o.stream,
      this.o.logger,
      event,
      {
        event,
        event_id: eventId,
        tenant_id: who.tenantId,
        user_id: who.userId,
        username: who.username,
        login_type: 'password',
        success,
        reason,
        ip: ctx.ip,
        user_agent: ctx.userAgent,
        device_id: ctx.deviceId,
        request_id: ctx.requestId,
        occurred_at: new Date(this.now()).toISOString(),
      },
      eventId,
    );
  }
}
