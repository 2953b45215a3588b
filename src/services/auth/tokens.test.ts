import { base64url, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  AccessTokens,
  bearerOf,
  hashRefreshToken,
  newRefreshToken,
  newSessionId,
} from './tokens.js';

const SECRET = 'unit-test-secret-0123456789abcdef0123456789';
const tokens = new AccessTokens(SECRET, 15 * 60_000);
const claims = { userId: 5, tenantId: 1, sessionId: 9, sessionVersion: 1 };

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { code?: number }).code;
  }
}

describe('access tokens', () => {
  it('verify what they sign', async () => {
    expect(await tokens.verify(await tokens.sign(claims))).toEqual(claims);
  });

  it('answer 40101 once expired', async () => {
    const old = await tokens.sign(claims, Date.now() - 16 * 60_000);
    expect(await codeOf(tokens.verify(old))).toBe(40101);
  });

  it('still expire after their signature was checked and remembered', async () => {
    let now = Date.now();
    const clocked = new AccessTokens(SECRET, 60_000, () => now);
    const token = await clocked.sign(claims);
    expect(await clocked.verify(token)).toEqual(claims);
    now += 66_000;
    expect(await codeOf(clocked.verify(token))).toBe(40101);
  });

  it('refuse alg: none', async () => {
    const unsecured = new UnsecuredJWT({ tid: 1, sid: 9 })
      .setSubject('5')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    expect(await codeOf(tokens.verify(unsecured))).toBe(40100);
  });

  it('refuse a token signed with another key', async () => {
    const forged = await new SignJWT({ tid: 1, sid: 9 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('5')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-0123456789abcdef0123'));
    expect(await codeOf(tokens.verify(forged))).toBe(40100);
  });

  it('refuse a tampered payload', async () => {
    const [header, , signature] = (await tokens.sign(claims)).split('.');
    const payload = base64url.encode(
      JSON.stringify({
        sub: '1',
        tid: 1,
        sid: 9,
        iss: 'approva',
        aud: 'approva-api',
        iat: 1,
        exp: 9999999999,
      }),
    );
    expect(await codeOf(tokens.verify(`${header}.${payload}.${signature}`))).toBe(40100);
  });

  it('refuse another algorithm even with the right key', async () => {
    const hs512 = await new SignJWT({ tid: 1, sid: 9 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('5')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await codeOf(tokens.verify(hs512))).toBe(40100);
  });

  it('never outlive the end they are given (the session ends first)', async () => {
    const now = Date.now();
    const token = await tokens.sign(claims, now, now + 60_000);
    const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp;
    expect(exp).toBe(Math.floor((now + 60_000) / 1000));
  });

  it('refuse a token without the session version', async () => {
    const legacy = await new SignJWT({ tid: 1, sid: 9 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('5')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await codeOf(tokens.verify(legacy))).toBe(40100);
  });

  it('refuse garbage', async () => {
    expect(await codeOf(tokens.verify('not.a.jwt'))).toBe(40100);
  });
});

describe('refresh tokens', () => {
  it('are random and stored only as their SHA-256', () => {
    const a = newRefreshToken();
    const b = newRefreshToken();
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashRefreshToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.token);
  });
});

describe('session ids', () => {
  it('are random integers in the API id range, not a sequence', () => {
    const ids = Array.from({ length: 1000 }, () => newSessionId());
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 0 && id < 1e15).toBe(true);
    // About 50 random bits: a thousand draws land far apart, nowhere near 1, 2, 3, ...
    expect(Math.min(...ids)).toBeGreaterThan(2 ** 20);
  });
});

describe('bearer header', () => {
  it('reads only a well-formed Bearer header', () => {
    expect(bearerOf('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerOf('bearer abc')).toBe('abc');
    expect(bearerOf('Basic abc')).toBeUndefined();
    expect(bearerOf(undefined)).toBeUndefined();
    expect(bearerOf('Bearer a b')).toBeUndefined();
  });
});
