import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { Cache } from '../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import type { Logger } from 'pino';
import type { AuthUser, UserDirectory } from './auth.ports.js';
import { checkCaptcha, createCaptcha, type CaptchaMode } from './captcha.js';
import {
  recordLoginEvent,
  type LoginEventSink,
  type LoginSubject,
  type LoginType,
  type RequestContext,
} from './login-events.js';
import { accountKey, type LoginThrottle } from './login-throttle.js';

export const DEFAULT_TENANT_CODE = 'default';

export interface LoginInput {
  username: string;
  password: string;
  tenant_code?: string | undefined;
  captcha_id?: string | undefined;
  captcha?: string | undefined;
  totp_code?: string | undefined;
}

/** A user who passed every sign-in check, with the session version read with the password. */
export interface SignedIn {
  user: AuthUser;
  sessionVersion: number;
  /** `ok`: the user has TOTP on and gave a right code. */
  factor: 'ok' | 'not_enrolled';
}

export interface SignInChecksOptions {
  directory: UserDirectory;
  cache: Cache;
  /** Where a sign-in's event is written (the login outbox). */
  loginEvents: LoginEventSink;
  logger: Logger;
  /** The process's argon2 semaphore. */
  passwords: PasswordHasher;
  throttle: LoginThrottle;
  /** LOGIN_CAPTCHA: `always`, `after_failures` (default) or `off`. */
  captchaMode: CaptchaMode;
  /** Injected clock (default Date.now). */
  now?: () => number;
  /** Second factor: whether the user needs a code and whether `code` is right. */
  secondFactor?:
    | ((
        userId: number,
        code: string | undefined,
      ) => Promise<'not_enrolled' | 'ok' | 'missing' | 'wrong'>)
    | undefined;
}

/**
 * The sign-in checks every way in shares (`POST /api/v1/login`, the OAuth2 sign-in page,
 * external providers' second factor), so none of them can skip one.
 */
export class SignInChecks {
  private readonly now: () => number;

  constructor(private readonly o: SignInChecksOptions) {
    this.now = o.now ?? Date.now;
  }

  /** A new login captcha (its answer kept in the cache). */
  captcha() {
    return createCaptcha(this.o.cache);
  }

  /**
   * The checks of a password sign-in: captcha, throttle (the attempt is counted as a failure
   * before the password is checked, see LoginThrottle), password, account and tenant status,
   * second factor; every refusal is logged as a failed login of `loginType`. A disabled account or tenant gets the answer of a wrong password, after the same
   * password check, so the answer never confirms a password.
   */
  async authenticate(
    input: LoginInput,
    ctx: RequestContext,
    loginType: LoginType,
  ): Promise<SignedIn> {
    const step = await this.passwordStep(input, ctx, loginType);
    const factor = await this.checkSecondFactor(
      step.credentials.id,
      input.totp_code,
      step.who,
      ctx,
      loginType,
      step.account,
    );
    return this.passed(step, factor, ctx);
  }

  /**
   * `authenticate` for a page that asks for the second factor on a step of its own: a user with
   * TOTP on gets `codeNeeded` (the attempt stays counted as a failure) and goes on with
   * `confirmSecondFactor`.
   */
  async authenticatePassword(
    input: Omit<LoginInput, 'totp_code'>,
    ctx: RequestContext,
    loginType: LoginType,
  ): Promise<SignedIn | { codeNeeded: true; userId: number }> {
    const step = await this.passwordStep(input, ctx, loginType);
    const userId = step.credentials.id;
    const { secondFactor } = this.o;
    const factor =
      secondFactor &&
      (await this.undecided(step.account, ctx, () => secondFactor(userId, undefined)));
    if (factor === 'missing') return { codeNeeded: true, userId };
    return this.passed(step, 'not_enrolled', ctx);
  }

  /** Captcha, throttle, password, account and tenant status: everything before the second factor. */
  private async passwordStep(input: LoginInput, ctx: RequestContext, loginType: LoginType) {
    const tenantCode = input.tenant_code || DEFAULT_TENANT_CODE;
    const tenant = await this.o.directory.findTenant(tenantCode);
    const account = accountKey(tenant ?? tenantCode, input.username);
    await checkCaptcha(this.o.cache, this.o.captchaMode, input, () =>
      this.o.throttle.recentFailures(account, ctx.ip),
    );
    const who = {
      tenantId: tenant?.id ?? null,
      userId: null as number | null,
      username: input.username,
    };
    await this.begin(account, who, ctx, loginType);
    const { credentials, valid } = await this.undecided(account, ctx, async () => {
      const found = tenant && (await this.o.directory.findCredentials(tenant.id, input.username));
      if (!found) {
        await this.o.passwords.burn(input.password);
        return { credentials: undefined, valid: false };
      }
      return {
        credentials: found,
        valid: await this.o.passwords.verify(found.password_hash, input.password),
      };
    });
    if (!tenant || !credentials) {
      await this.publishLogin(
        false,
        tenant ? 'unknown_user' : 'unknown_tenant',
        who,
        ctx,
        loginType,
      );
      throw new AppError(ERROR_CODES.BAD_CREDENTIALS);
    }
    who.userId = credentials.id;
    const refusal = !valid
      ? 'wrong_password'
      : tenant.status !== 'active'
        ? 'tenant_disabled'
        : credentials.status !== 'active'
          ? 'user_disabled'
          : null;
    if (refusal) {
      await this.publishLogin(false, refusal, who, ctx, loginType);
      throw new AppError(ERROR_CODES.BAD_CREDENTIALS);
    }
    return { account, who, credentials };
  }

  /** Every check passed: the account starts afresh at this address. */
  private async passed(
    step: { account: string; credentials: { id: number; session_version: number } },
    factor: SignedIn['factor'],
    ctx: RequestContext,
  ): Promise<SignedIn> {
    await this.o.throttle.succeeded(step.account, ctx.ip);
    const user = await this.requireUser(step.credentials.id);
    return { user, sessionVersion: step.credentials.session_version, factor };
  }

  /**
   * The second factor alone, for a user whose first factor passed a moment ago (the password on
   * the OAuth2 sign-in page's first step, or an external provider): without a code the answer of
   * `/login` to a TOTP user without one (40001 on `totp_code`); a code is an attempt under the
   * same throttle as a password.
   */
  async confirmSecondFactor(
    userId: number,
    code: string | undefined,
    ctx: RequestContext,
    loginType: LoginType,
  ): Promise<SignedIn> {
    const user = await this.o.directory.findUser(userId, { fresh: true });
    if (!user || user.status !== 'active') throw new AppError(ERROR_CODES.BAD_CREDENTIALS);
    const who = { tenantId: user.tenant_id, userId: user.id, username: user.username };
    const account = accountKey({ id: user.tenant_id }, user.username);
    if (code) await this.begin(account, who, ctx, loginType);
    const factor = await this.checkSecondFactor(
      user.id,
      code,
      who,
      ctx,
      loginType,
      code ? account : undefined,
    );
    if (code) await this.o.throttle.succeeded(account, ctx.ip);
    return { user, sessionVersion: user.session_version, factor };
  }

  /**
   * Lets a signed-in user through to an OAuth2 client: refused (40302) while a password change
   * is required, since the client's tokens would bypass that gate. Logged as login type `oidc`;
   * answers the ID token's `amr`.
   */
  admitToProvider(signedIn: SignedIn, ctx: RequestContext): { accountId: string; amr: string[] } {
    const { user } = signedIn;
    const who = { tenantId: user.tenant_id, userId: user.id, username: user.username };
    if (user.must_change_password) {
      void this.publishLogin(false, 'password_change_required', who, ctx, 'oidc');
      throw new AppError(ERROR_CODES.PASSWORD_CHANGE_REQUIRED);
    }
    void this.publishLogin(true, null, who, ctx, 'oidc');
    return { accountId: String(user.id), amr: signedIn.factor === 'ok' ? ['pwd', 'otp'] : ['pwd'] };
  }

  /** Counts the attempt (LoginThrottle.begin); a refusal is logged as a throttled login. */
  private async begin(
    account: string,
    who: LoginSubject,
    ctx: RequestContext,
    loginType: LoginType,
  ) {
    try {
      await this.o.throttle.begin(account, ctx.ip);
    } catch (err) {
      await this.publishLogin(false, 'throttled', who, ctx, loginType);
      throw err;
    }
  }

  /**
   * Runs the part of a counted attempt that reaches its verdict (the password or code checked).
   * Failing before it (the database down, the hasher's queue full) takes the count back: no guess
   * was judged, and an outage must not lock the owner out. Without an `account` nothing was
   * counted, and `work` just runs.
   */
  private async undecided<T>(
    account: string | undefined,
    ctx: RequestContext,
    work: () => Promise<T>,
  ) {
    if (!account) return work();
    try {
      return await work();
    } catch (err) {
      await this.o.throttle.abandoned(account, ctx.ip).catch(() => undefined);
      throw err;
    }
  }

  /**
   * TOTP: a user with it on needs the code as well (40001 without one, 40103 for a wrong one).
   * `account` names the counted attempt the code belongs to, if any.
   */
  private async checkSecondFactor(
    userId: number,
    code: string | undefined,
    who: LoginSubject,
    ctx: RequestContext,
    loginType: LoginType,
    account?: string,
  ): Promise<'ok' | 'not_enrolled'> {
    const { secondFactor } = this.o;
    const factor = secondFactor
      ? await this.undecided(account, ctx, () => secondFactor(userId, code))
      : 'not_enrolled';
    if (factor === 'missing') {
      throw AppError.validation(
        [{ field: 'totp_code', rule: 'required', message: 'two-factor code required' }],
        'two-factor code required',
      );
    }
    if (factor === 'wrong') {
      await this.publishLogin(false, 'wrong_totp', who, ctx, loginType);
      throw new AppError(ERROR_CODES.BAD_CREDENTIALS);
    }
    return factor;
  }

  private async requireUser(userId: number): Promise<AuthUser> {
    const user = await this.o.directory.findUser(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
    return user;
  }

  private publishLogin(
    success: boolean,
    reason: string | null,
    who: LoginSubject,
    ctx: RequestContext,
    loginType: LoginType,
  ) {
    return recordLoginEvent(this.o, { success, reason, who, ctx, loginType, at: this.now() });
  }
}
