import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Principal } from '../../../platform/auth/principal.js';
import { AppError } from '../../../platform/http/errors.js';
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

export type SecondFactorResult = 'not_enrolled' | 'ok' | 'missing' | 'wrong';

export interface TotpServiceOptions {
  db: TotpDb;
  /** Encrypts the stored secrets. */
  cipher: KeyCipher;
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
  async enroll(principal: Principal) {
    const secret = generateSecret();
    const saved = await savePendingTotp(this.o.db, principal.userId, this.o.cipher.seal(secret));
    if (!saved)
      throw AppError.conflict('two-factor authentication is already on; disable it first');
    return {
      secret,
      otpauth_uri: generateURI({ issuer: ISSUER, label: principal.username, secret }),
    };
  }

  private async check(secretEncrypted: string, code: string, afterTimeStep: number | null) {
    if (!/^\d{6}$/.test(code)) return undefined;
    const result = await verify({
      secret: this.o.cipher.open(secretEncrypted),
      token: code,
      epoch: Math.floor(this.now() / 1000),
      epochTolerance: TOLERANCE_SECONDS,
      ...(afterTimeStep !== null ? { afterTimeStep: Number(afterTimeStep) } : {}),
    });
    return result.valid ? (result as { timeStep: number }).timeStep : undefined;
  }

  /** Turns TOTP on with a first valid code; answers the recovery codes, shown this once. */
  async confirm(principal: Principal, code: string) {
    const row = await findTotp(this.o.db, principal.userId);
    if (!row) throw AppError.conflict('enrol first');
    if (row.enabled_at) throw AppError.conflict('two-factor authentication is already on');
    const timeStep = await this.check(row.secret_encrypted, code, null);
    if (timeStep === undefined) throw invalidCode();
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    if (!(await enableTotp(this.o.db, principal.userId, timeStep, codes.map(sha256)))) {
      throw AppError.conflict('two-factor authentication is already on');
    }
    return { recovery_codes: codes };
  }

  /** Turns TOTP off; needs a current code or a recovery code. */
  async disable(principal: Principal, code: string) {
    if ((await this.verifyCode(principal.userId, code)) !== 'ok') throw invalidCode();
    await deleteTotp(this.o.db, principal.userId);
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
