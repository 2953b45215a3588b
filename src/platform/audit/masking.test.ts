import { describe, expect, it } from 'vitest';
import {
  capText,
  isSecretKey,
  MASK,
  maskBody,
  maskSecrets,
  MAX_STORED_BODY_CHARS,
} from './masking.js';

describe('isSecretKey', () => {
  it('matches secret-looking keys in any case and spelling', () => {
    for (const key of [
      'password',
      'new_password',
      'oldPassword',
      'PASSWORD',
      'passwd',
      'token',
      'access_token',
      'refreshToken',
      'client_secret',
      'api_key',
      'X-Api-Key',
      'Authorization',
      'captcha',
      'captcha_id',
      'admin_password',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
  });

  it('leaves ordinary keys and token_type alone', () => {
    for (const key of ['username', 'nickname', 'token_type', 'expires_in', 'id', 'status']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('maskSecrets', () => {
  it('masks secrets at any depth, inside arrays, without touching the input', () => {
    const input = {
      username: 'alice',
      password: 'p',
      profile: { Client_Secret: { nested: 'x' }, name: 'A' },
      sessions: [{ access_token: 't1', id: 1 }, [{ REFRESH_TOKEN: 't2' }]],
      count: 3,
      flag: null,
    };
    expect(maskSecrets(input)).toEqual({
      username: 'alice',
      password: MASK,
      profile: { Client_Secret: MASK, name: 'A' },
      sessions: [{ access_token: MASK, id: 1 }, [{ REFRESH_TOKEN: MASK }]],
      count: 3,
      flag: null,
    });
    expect(input.password).toBe('p');
  });

  it('cuts structures deeper than the limit instead of recursing without bound', () => {
    let deep: unknown = { password: 'x' };
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(JSON.stringify(maskSecrets(deep))).toContain('[too deep]');
  });

  it('keeps a __proto__ key as plain data', () => {
    const masked = maskSecrets(JSON.parse('{"__proto__": {"password": "x"}}')) as object;
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(JSON.stringify(masked)).toBe('{"__proto__":{"password":"***"}}');
  });
});

describe('maskBody', () => {
  it('stores parsed bodies as masked JSON text', () => {
    expect(maskBody({ password: 'p', user: { token: 't' } })).toBe(
      '{"password":"***","user":{"token":"***"}}',
    );
  });

  it('parses JSON text before masking', () => {
    expect(maskBody('{"data":{"access_token":"a","token_type":"Bearer"}}')).toBe(
      '{"data":{"access_token":"***","token_type":"Bearer"}}',
    );
    expect(maskBody('[{"secret":1}]')).toBe('[{"secret":"***"}]');
  });

  it('masks key=value pairs and JSON-looking pairs in text that is not JSON', () => {
    expect(maskBody('username=a&password=hunter2&captcha=12')).toBe(
      'username=a&password=***&captcha=***',
    );
    expect(maskBody('{"password": "hunter2", "x": ')).toBe('{"password":"***", "x": ');
    expect(maskBody('plain text')).toBe('plain text');
  });

  it('is null for empty bodies and a marker for binary and streamed ones', () => {
    expect(maskBody(undefined)).toBeNull();
    expect(maskBody(null)).toBeNull();
    expect(maskBody('')).toBeNull();
    expect(maskBody(Buffer.from('abc'))).toBe('[binary 3 bytes]');
    expect(maskBody({ pipe: () => undefined })).toBe('[stream]');
  });

  it('caps a large body at 16 KB with a truncation marker', () => {
    const stored = maskBody({ password: 'p', blob: 'x'.repeat(1024 * 1024) })!;
    expect(stored.length).toBeLessThan(MAX_STORED_BODY_CHARS + 100);
    expect(stored.startsWith('{"password":"***"')).toBe(true);
    expect(stored).toMatch(/…\[truncated \d+ chars\]$/);
    expect(capText('short')).toBe('short');
  });
});
