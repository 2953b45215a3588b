import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Principal } from '../../../platform/auth/principal.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { AppError } from '../../../platform/errors.js';
import type { RequestContext } from '../login-events.js';
import { rateLimited } from '../login-throttle.js';
import type { KeyCipher } from '../oauth2/signing-keys.js';
import {
  advanceTimeStep,
  deleteTotp,
  enableTotp,
  findTotp,
  savePendingTotp,
  useRecoveryCode,
} from './totp.repo.js';
import type { TotpDb } from './totp.tables.js';

const ISSUER = 'Approva';
const RECOVERY_CODES = 10;
/** One period either side, for clock drift between the phone and the server. */
const TOLERANCE_SECONDS = 30;
const RECOVERY_CODE = /^[a-z0-9]{5}-[a-z0-9]{5}$/;
/** Wrong codes an account may send to confirm or disable within the window before a 429. */
export const MAX_CODE_FAILURES = 5;
const CODE_FAILURE_WINDOW_MS = 15 * 60_000;
const failuresKey = (userId: number) => `auth:totp-failures:${userId}`;

export type SecondFactorResult = 'not_enrolled' | 'ok' | 'missing' | 'wrong';
export interface CodeAndPassword {
  code: string;
  password: string;
}

export interface TotpServiceOptions {
  db: TotpDb;
  /** Encrypts the stored secrets. */
  cipher: KeyCipher;
  /** Where wrong codes are counted per account (shared by replicas through Redis). */
  cache: Cache;
  /**
   * Checks the caller's current password (40001 on `password` when wrong), counted like a
   * failed sign-in (the auth service's).
   */
  confirmPassword(principal: Principal, password: string, ctx: RequestContext): Promise<void>;
  /** Signs the caller's other sessions out (the auth service's). */
  signOutOthers(principal: Principal): Promise<void>;
  /** Injected clock (default Date.now). */
  now?: () => number;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function newRecoveryCode(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function invalidCode(): AppError {
  return AppError.validation(
    [{ field: 'code', rule: 'format', message: 'the code is wrong' }],
    'the code is wrong',
  );
}

/**
 * The time step of a valid 6-digit code (one period of drift either side), or undefined. A code
 * of `afterTimeStep` or an earlier step is refused: the first guard of "each code once" (the
 * second is the conditional update that records the step, advanceTimeStep).
 */
export async function acceptedTimeStep(input: {
  secret: string;
  code: string;
  nowMs: number;
  afterTimeStep: number | null;
}): Promise<number | undefined> {
  if (!/^\d{6}$/.test(input.code)) return undefined;
  const result = await verify({
    secret: input.secret,
    token: input.code,
    epoch: Math.floor(input.nowMs / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(input.afterTimeStep !== null ? { afterTimeStep: Number(input.afterTimeStep) } : {}),
  });
  return result.valid ? (result as { timeStep: number }).timeStep : undefined;
}

/** TOTP second factor (RFC 6238): enrol, confirm with a first code, disable; checked at login. */
export class TotpService {
  private readonly now: () => number;

  constructor(private readonly o: TotpServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  async status(principal: Principal) {
    const row = await findTotp(this.o.db, principal.userId);
    return { enabled: Boolean(row?.enabled_at) };
  }

  /** A new secret and its `otpauth://` URI (for the QR code); active only once confirmed. */
  async enroll(principal: Principal, password: string, ctx: RequestContext) {
    await this.o.confirmPassword(principal, password, ctx);
    const secret = generateSecret();
    const saved = await savePendingTotp(this.o.db, principal.userId, this.o.cipher.seal(secret));
    if (!saved)
      throw AppError.conflict('two-factor authentication is already on; disable it first');
    return {
      secret,
      otpauth_uri: generateURI({ issuer: ISSUER, label: principal.username, secret }),
    };
  }

  private check(secretEncrypted: string, code: string, afterTimeStep: number | null) {
    const secret = this.o.cipher.open(secretEncrypted);
    return acceptedTimeStep({ secret, code, nowMs: this.now(), afterTimeStep });
  }

  /**
   * Turns TOTP on with the password and a first valid code; answers the recovery codes, shown
   * this once. The caller's other sessions are signed out.
   */
  async confirm(principal: Principal, input: CodeAndPassword, ctx: RequestContext) {
    await this.o.confirmPassword(principal, input.password, ctx);
    const row = await findTotp(this.o.db, principal.userId);
    if (!row) throw AppError.conflict('enrol first');
    if (row.enabled_at) throw AppError.conflict('two-factor authentication is already on');
    const timeStep = await this.counted(principal.userId, async () =>
      this.check(row.secret_encrypted, input.code, null),
    );
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    if (!(await enableTotp(this.o.db, principal.userId, timeStep, codes.map(sha256)))) {
      throw AppError.conflict('two-factor authentication is already on');
    }
    await this.o.signOutOthers(principal);
    return { recovery_codes: codes };
  }

  /**
   * Turns TOTP off; needs the password and a current code or a recovery code. The caller's
   * other sessions are signed out.
   */
  async disable(principal: Principal, input: CodeAndPassword, ctx: RequestContext) {
    await this.o.confirmPassword(principal, input.password, ctx);
    await this.counted(principal.userId, async () =>
      (await this.verifyCode(principal.userId, input.code)) === 'ok' ? true : undefined,
    );
    await deleteTotp(this.o.db, principal.userId);
    await this.o.signOutOthers(principal);
  }

  /**
   * Runs a code check under the account's failure count: every attempt counts before the check
   * (atomically, so parallel guesses count in full), a right code clears the count, and after
   * MAX_CODE_FAILURES wrong ones within the window every attempt is 429, right or wrong.
   */
  private async counted<T>(userId: number, check: () => Promise<T | undefined>): Promise<T> {
    const key = failuresKey(userId);
    const attempts = await this.o.cache.increment(key, CODE_FAILURE_WINDOW_MS);
    if (attempts > MAX_CODE_FAILURES) {
      throw rateLimited(CODE_FAILURE_WINDOW_MS, 'too many wrong codes; try again later');
    }
    const result = await check();
    if (result === undefined) throw invalidCode();
    await this.o.cache.del(key);
    return result;
  }

  /** The login hook: whether this user needs a code, and whether the one given is right. */
  readonly verifyLogin = (userId: number, code: string | undefined): Promise<SecondFactorResult> =>
    this.verifyCode(userId, code);

  private async verifyCode(userId: number, code: string | undefined): Promise<SecondFactorResult> {
    const row = await findTotp(this.o.db, userId);
    if (!row?.enabled_at) return 'not_enrolled';
    const given = code?.trim().toLowerCase();
    if (!given) return 'missing';
    if (RECOVERY_CODE.test(given)) {
      return (await useRecoveryCode(this.o.db, userId, sha256(given))) ? 'ok' : 'wrong';
    }
    const timeStep = await this.check(row.secret_encrypted, given, row.last_time_step);
    if (timeStep === undefined) return 'wrong';
    // Conditional on the stored step: a code is accepted once, even by two concurrent logins.
    return (await advanceTimeStep(this.o.db, userId, timeStep)) ? 'ok' : 'wrong';
  }
}
