import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../platform/auth/passwords.js';
import { MemoryCache } from '../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import type { UserDirectory } from './auth.ports.js';
import { LoginThrottle } from './login-throttle.js';
import { SignInChecks } from './sign-in-checks.js';

const ctx = { ip: '10.0.0.9', userAgent: 'test', deviceId: null, requestId: 'r1' };
const account = 't:1:bob';

/** Sign-in checks over a directory whose credential lookup fails while `down` is set. */
async function setup(secondFactor?: 'down') {
  const cache = new MemoryCache();
  const passwords = new PasswordHasher({ concurrency: 1, queue: 4 });
  const hash = await passwords.hash('right-horse-battery');
  const state = { down: false };
  const outage = () => AppError.unavailable(new Error('terminating connection (57P01)'));
  const directory = {
    findTenant: async () => ({ id: 1, status: 'active' as const }),
    findCredentials: async () => {
      if (state.down) throw outage();
      return { id: 7, password_hash: hash, status: 'active', session_version: 1 };
    },
    findUser: async () => ({ id: 7, tenant_id: 1, username: 'bob', status: 'active' }),
  } as unknown as UserDirectory;
  const throttle = new LoginThrottle({
    cache,
    backoffAfter: 3,
    backoffBaseMs: 60_000,
    backoffMaxMs: 60_000,
    ipMaxFailures: 100,
  });
  const checks = new SignInChecks({
    directory,
    cache,
    loginEvents: async () => undefined,
    logger: pino({ level: 'silent' }),
    passwords,
    throttle,
    captchaMode: 'off',
    secondFactor: async (_userId, code) => {
      if (secondFactor === 'down') throw outage();
      return code === '123456' ? 'ok' : code ? 'wrong' : 'missing';
    },
  });
  return { checks, throttle, state };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (err: AppError) => err.code,
  );

describe('sign-in checks during an outage', () => {
  it('takes back an attempt the database failed before its password was checked', async () => {
    const { checks, throttle, state } = await setup();
    state.down = true;
    for (let i = 0; i < 6; i++) {
      const attempt = checks.authenticate({ username: 'bob', password: 'x' }, ctx, 'password');
      expect(await codeOf(attempt)).toBe(ERROR_CODES.UNAVAILABLE);
    }
    expect(await throttle.recentFailures(account, ctx.ip)).toEqual({
      account: 0,
      ip: 0,
      spread: false,
    });
    // Past the outage the owner signs in at once: no backoff was earned.
    state.down = false;
    const input = { username: 'bob', password: 'right-horse-battery', totp_code: '123456' };
    expect(await codeOf(checks.authenticate(input, ctx, 'password'))).toBe(200);
  });

  it('still counts wrong passwords, and takes back a code the second factor could not check', async () => {
    const { checks, throttle } = await setup('down');
    const wrong = checks.authenticate({ username: 'bob', password: 'nope' }, ctx, 'password');
    expect(await codeOf(wrong)).toBe(ERROR_CODES.BAD_CREDENTIALS);
    const right = { username: 'bob', password: 'right-horse-battery', totp_code: '000000' };
    expect(await codeOf(checks.authenticate(right, ctx, 'password'))).toBe(ERROR_CODES.UNAVAILABLE);
    expect((await throttle.recentFailures(account, ctx.ip)).account).toBe(1);
  });
});
