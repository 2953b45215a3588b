import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { passwordProblem, type PasswordHasher } from '../../../platform/auth/passwords.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { Mailer } from '../../../platform/notify/mailer.js';
import type { AuthPorts, UserDirectory } from '../auth.ports.js';
import { consumeResetToken, insertResetToken, isResetTokenOpen } from './password-reset.repo.js';
import type { PasswordResetDb } from './password-reset.tables.js';

/** A reset token lives this long (the spec's limit). */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;
const FORGOT_WINDOW_MS = 15 * 60_000;

export interface PasswordResetServiceOptions {
  db: PasswordResetDb;
  /** The platform's argon2 work, under its concurrency cap. */
  passwords: PasswordHasher;
  /** Identity's accounts (a port): who a reset is for. */
  accounts: Pick<UserDirectory, 'findAccount'>;
  cache: Cache;
  logger: Logger;
  /** SMTP when configured; without it the link is logged, outside production only. */
  mailer: Mailer | undefined;
  production: boolean;
  /** `/password/forgot` requests per client IP in 15 minutes (PASSWORD_FORGOT_PER_IP, default 5). */
  forgotPerIp: number;
  /** `/password/reset` requests per client IP in 15 minutes (PASSWORD_RESET_PER_IP, default 10). */
  resetPerIp: number;
  /** The page a reset link points to (`?token=` is appended); read when a mail is sent. */
  resetUrl: () => string;
  /** Sets the new password hash (identity's port). */
  setPassword(userId: number, passwordHash: string): Promise<void>;
  /** Signs out every session of the user (the auth service's port). */
  revokeSessions(userId: number): Promise<void>;
  /** Injected clock (default Date.now). */
  now?: () => number;
  /** The mail's current text (the system service's template `auth.password_reset`). */
  renderText?: AuthPorts['renderText'];
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Password reset by mail: single-use, SHA-256-stored tokens that expire after 30 minutes. */
export class PasswordResetService {
  private readonly now: () => number;

  constructor(private readonly o: PasswordResetServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  /**
   * Answers the same whether or not the account exists; the mail goes out after the answer so
   * its timing tells nothing either. Limited per IP.
   */
  async forgot(input: { username_or_email: string; tenant_code?: string | undefined }, ip: string) {
    await this.limitPerIp(`auth:pwreset:ip:${ip}`, this.o.forgotPerIp);
    const account = await this.o.accounts.findAccount(
      input.tenant_code ?? 'default',
      input.username_or_email,
    );
    if (!account?.email) return;
    const token = randomBytes(32).toString('base64url');
    await insertResetToken(this.o.db, {
      tenantId: Number(account.tenant_id),
      userId: Number(account.id),
      tokenHash: sha256(token),
      expiresAt: new Date(this.now() + RESET_TOKEN_TTL_MS),
    });
    void this.deliver(account.email, account.username, token);
  }

  private async limitPerIp(key: string, limit: number) {
    const count = await this.o.cache.increment(key, FORGOT_WINDOW_MS).catch(() => 0);
    if (count > limit) {
      throw new AppError(ERROR_CODES.RATE_LIMITED, 'too many password reset requests; try later');
    }
  }

  private async deliver(email: string, username: string, token: string) {
    const link = `${this.o.resetUrl()}?token=${encodeURIComponent(token)}`;
    const builtIn = {
      title: 'Reset your Approva password',
      body: `Hello ${username},\n\nsomeone asked to reset your Approva password. To choose a new one, open\n\n${link}\n\nThe link works once, within 30 minutes. If it was not you, ignore this mail.\n`,
    };
    if (!this.o.mailer) {
      if (this.o.production) {
        this.o.logger.warn(
          'password reset requested but mail is not configured (MAIL_ENABLED, SMTP_HOST)',
        );
      } else {
        // Development only: the link (a secret) goes to the log because there is no mail.
        this.o.logger.info({ to: email, link }, 'password reset link (mail is not configured)');
      }
      return;
    }
    try {
      const { title, body } = this.o.renderText
        ? await this.o.renderText('auth.password_reset', { username, link })
        : builtIn;
      await this.o.mailer.send({ to: email, subject: title, text: body });
    } catch (err) {
      this.o.logger.error({ err: (err as Error).message }, 'password reset mail could not be sent');
    }
  }

  /**
   * Sets the new password with a valid token and signs every session of the user out. Limited
   * per IP; the token is looked up before any argon2 work, and the hash takes the anonymous
   * share of the password slots, so made-up tokens cost a query, never a hash.
   */
  async reset(input: { token: string; new_password: string }, ip: string) {
    await this.limitPerIp(`auth:pwreset:reset-ip:${ip}`, this.o.resetPerIp);
    const tokenHash = sha256(input.token);
    const invalidToken = () =>
      AppError.validation(
        [{ field: 'token', rule: 'format', message: 'the reset link is invalid, used or expired' }],
        'the reset link is invalid, used or expired',
      );
    if (!(await isResetTokenOpen(this.o.db, tokenHash, new Date(this.now())))) {
      throw invalidToken();
    }
    // The platform's password policy (length and strength), as every other password path.
    const problem = passwordProblem(input.new_password);
    if (problem) {
      throw AppError.validation([{ field: 'new_password', rule: 'format', message: problem }]);
    }
    const passwordHash = await this.o.passwords.hash(input.new_password, 'anonymous');
    // Consumed only now, conditionally: of two concurrent submits exactly one wins.
    const consumed = await consumeResetToken(this.o.db, tokenHash, new Date(this.now()));
    if (!consumed) throw invalidToken();
    await this.o.setPassword(consumed.userId, passwordHash);
    await this.o.revokeSessions(consumed.userId);
  }
}
