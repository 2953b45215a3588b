import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError, ERROR_CODES } from '../../platform/http/errors.js';

const ISSUER = 'approva';
const AUDIENCE = 'approva-api';
/** Clock skew accepted on `exp`/`nbf`/`iat` between replicas. */
const CLOCK_TOLERANCE_S = 5;

export interface AccessClaims {
  userId: number;
  tenantId: number;
  sessionId: number;
}

/** Signs and verifies platform access tokens: HS256 only, pinned, with issuer and audience. */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    readonly ttlMs: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ tid: claims.tenantId, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + Math.round(this.ttlMs / 1000))
      .sign(this.key);
  }

  /** 40101 when expired, 40100 for anything else wrong (forged, `alg: none`, other claims). */
  async verify(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const userId = Number(payload.sub);
      const tenantId = payload.tid;
      const sessionId = payload.sid;
      if (
        !Number.isSafeInteger(userId) ||
        typeof tenantId !== 'number' ||
        typeof sessionId !== 'number'
      ) {
        throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'invalid token');
      }
      return { userId, tenantId, sessionId };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof errors.JWTExpired) throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
      throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'invalid token');
    }
  }
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
