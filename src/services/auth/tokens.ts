import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError, ERROR_CODES } from '../../platform/errors.js';

const ISSUER = 'approva';
const AUDIENCE = 'approva-api';
/** Clock skew accepted on `exp`/`nbf`/`iat` between replicas. */
const CLOCK_TOLERANCE_S = 5;
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  userId: number;
  tenantId: number;
  sessionId: number;
  /** The user's session version the session was opened under (claim `sv`). */
  sessionVersion: number;
}

/** Signs and verifies platform access tokens: HS256 only, pinned, with issuer and audience. */
export class AccessTokens {
  // A CryptoKey imported once: a raw byte key makes jose import it again on every call.
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens whose signature was already checked, with their expiry. The signature of a given
   * token string never changes, so it is checked once; expiry is still checked on every use,
   * and session and user state are checked by the caller every time.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expMs: number }>();

  constructor(
    secret: string,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  /** `notAfterMs` caps the expiry (the session's own end). */
  async sign(claims: AccessClaims, now = this.now(), notAfterMs = Infinity): Promise<string> {
    const iat = Math.floor(now / 1000);
    const exp = Math.min(iat + Math.round(this.ttlMs / 1000), Math.floor(notAfterMs / 1000));
    return new SignJWT({ tid: claims.tenantId, sid: claims.sessionId, sv: claims.sessionVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await this.key);
  }

  /** 40101 when expired, 40100 for anything else wrong (forged, `alg: none`, other claims). */
  async verify(token: string): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expMs + CLOCK_TOLERANCE_S * 1000 <= this.now()) {
        this.verified.delete(token);
        throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
      }
      return known.claims;
    }
    const claims = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      // Oldest first: Map keeps insertion order.
      this.verified.delete(this.verified.keys().next().value!);
    }
    this.verified.set(token, claims);
    return claims.claims;
  }

  private async verifySignature(token: string): Promise<{ claims: AccessClaims; expMs: number }> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        currentDate: new Date(this.now()),
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const userId = Number(payload.sub);
      const tenantId = payload.tid;
      const sessionId = payload.sid;
      const sessionVersion = payload.sv;
      if (
        !Number.isSafeInteger(userId) ||
        typeof tenantId !== 'number' ||
        typeof sessionId !== 'number' ||
        typeof sessionVersion !== 'number'
      ) {
        throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'invalid token');
      }
      return {
        claims: { userId, tenantId, sessionId, sessionVersion },
        expMs: payload.exp! * 1000,
      };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof errors.JWTExpired) throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
      throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'invalid token');
    }
  }
}

const MAX_SESSION_ID = 999_999_999_999_999n;

/**
 * A session id: about 50 random bits from the CSPRNG, never a sequence number, since it travels
 * in access tokens and identity headers.
 */
export function newSessionId(): number {
  // Within the API's id range (1 … 999 999 999 999 999, about 50 random bits), so a session id
  // is a valid path id wherever one is taken.
  return Number(randomBytes(8).readBigUInt64BE() % MAX_SESSION_ID) + 1;
}

/** An opaque refresh token: 256 random bits; only its SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The bearer token of an `Authorization` header, or undefined. */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
  return match?.[1];
}
