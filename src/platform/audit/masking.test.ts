import { describe, expect, it } from 'vitest';
import {
  capText,
  MASK,
  maskBody,
  maskSecrets,
  maskText,
  MAX_STORED_BODY_CHARS,
} from './masking.js';
import { isSecretKey, keyKind } from './secret-keys.js';

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
      'otpauth_uri',
      'OTP-Auth-URI',
      'recovery_codes',
      'recoveryCode',
      'totp_code',
      'TOTP',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
  });

  it('leaves ordinary keys and token_type alone', () => {
    for (const key of ['username', 'nickname', 'token_type', 'expires_in', 'id', 'status']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });

  it('classifies code keys apart: masked in stored bodies unless their value is a number', () => {
    for (const key of ['code', 'verification_code', 'AuthCode', 'codes']) {
      expect(keyKind(key), key).toBe('code');
    }
    expect(keyKind('tenant_code')).toBe('plain');
    expect(keyKind('totp_code')).toBe('secret');
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
    expect(stored.startsWith('{"password":"***","blob":"xxx')).toBe(true);
    expect(stored).toMatch(/…\[truncated\]$/);
    const text = maskBody(`a=1&password=secret&${'x'.repeat(1024 * 1024)}`)!;
    expect(text.startsWith('a=1&password=***&xxx')).toBe(true);
    expect(text).toMatch(/…\[truncated \d+ chars\]$/);
    expect(text.length).toBeLessThan(MAX_STORED_BODY_CHARS + 100);
    expect(capText('short')).toBe('short');
  });

  it('writes parsed bodies exactly as JSON.stringify of the masked copy when they fit', () => {
    const body = {
      a: [1, 'two', null, true, { token: 'x', n: -1.5e-7 }],
      nested: { deeper: { password: { any: 'shape' } } },
      text: 'quote " backslash \\ nul \u0000 \ud800 é',
      empty: {},
      list: [],
    };
    expect(maskBody(body)).toBe(JSON.stringify(maskSecrets(body)));
    expect(maskBody(JSON.stringify(body))).toBe(JSON.stringify(maskSecrets(body)));
  });

  it('masks second factors and codes that are not numbers, keeping the envelope code', () => {
    const body = {
      code: 200,
      message: 'ok',
      data: {
        otpauth_uri: 'otpauth://totp/A:u?secret=S',
        recovery_codes: ['a-b', 'c-d'],
        totpCode: '123456',
        verification_code: '99',
        auth: { code: 'xyz', codes: [1, 2] },
        status_code: 404,
        tenant_code: 'acme',
      },
    };
    const expected = JSON.stringify({
      code: 200,
      message: 'ok',
      data: {
        otpauth_uri: MASK,
        recovery_codes: MASK,
        totpCode: MASK,
        verification_code: MASK,
        auth: { code: MASK, codes: MASK },
        status_code: 404,
        tenant_code: 'acme',
      },
    });
    expect(maskBody(body)).toBe(expected);
    expect(maskBody(JSON.stringify(body))).toBe(expected);
    // A numeric one-time code under a second-factor key is masked all the same.
    expect(maskBody({ totp_code: 123456 })).toBe('{"totp_code":"***"}');
  });

  it('keeps only allow-listed keys when asked, at any depth (the BPM bodies)', () => {
    const keeps = (key: string) => ['code', 'data', 'id', 'status', 'details'].includes(key);
    expect(
      maskBody(
        {
          code: 200,
          data: [{ id: 1, status: 'done', form: { amount: 5 }, details: { changes: [1] } }],
        },
        { keeps },
      ),
    ).toBe(
      '{"code":200,"data":[{"id":1,"status":"done","form":"***","details":{"changes":"***"}}]}',
    );
    // Secrets stay masked under an allowed key; text that does not parse is not stored.
    expect(maskBody({ data: { id: 1, token: 't' } }, { keeps })).toBe(
      '{"data":{"id":1,"token":"***"}}',
    );
    expect(maskBody('{"data":{"form":{"amount":5', { keeps })).toBe('[omitted]');
  });
});

describe('maskText', () => {
  it('masks JSON members with secret keys whatever their value, up to a cut', () => {
    expect(maskText('{"token": {"a": "}"}, "x": 1, "apiKey": 42, "ok": "v"}')).toBe(
      '{"token":"***", "x": 1, "apiKey":"***", "ok": "v"}',
    );
    expect(maskText('{"user":{"password":"hunt')).toBe('{"user":{"password":"***"');
    expect(maskText('{"pass\\u0077ord": "x"}')).toBe('{"pass\\u0077ord":"***"}');
    expect(maskText('{"code": 40100, "totp_code": "1234", "data": {"code": "ab')).toBe(
      '{"code": 40100, "totp_code":"***", "data": {"code":"***"',
    );
    expect(maskText('{"note": "has \\"password\\": inside", "b": 2}')).toBe(
      '{"note": "has \\"password\\": inside", "b": 2}',
    );
  });

  it('masks key=value pairs outside strings and inside string values', () => {
    expect(maskText('a=1&new_password=x%20y&b=2; session_token=abc def')).toBe(
      'a=1&new_password=***&b=2; session_token=*** def',
    );
    expect(maskText('{"url": "https://h/cb?code=1&access_token=abc&x=1"}')).toBe(
      '{"url": "https://h/cb?code=***&access_token=***&x=1"}',
    );
    expect(maskText('new%5Fpassword=x&user%5Bpassword%5D=y')).toBe(
      'new%5Fpassword=***&user%5Bpassword%5D=***',
    );
    expect(maskText('token_type=Bearer&plain text')).toBe('token_type=Bearer&plain text');
  });

  // Shapes that made the old regex backtrack quadratically (or worse): each costs one pass.
  const adversarial: Array<[string, (n: number) => string]> = [
    ['a key-ish run without "="', (n) => 'password'.repeat(n / 8)],
    ['an unterminated quoted key', (n) => `"${'password'.repeat(n / 8)}`],
    ['quoted secret keys without a colon', (n) => '"token"'.repeat(n / 7)],
    ['a colon and an unterminated value', (n) => `"token": "${'\\x'.repeat(n / 3)}`],
    ['word characters and dots', (n) => `${'a.'.repeat(n / 2)}`],
    ['many "=" signs', (n) => 'token='.repeat(n / 6)],
    ['code keys with and without numbers', (n) => '"code": 1,"code": '.repeat(n / 18)],
    ['nested brackets after a secret key', (n) => `"secret":${'['.repeat(n)}`],
    ['alternating quotes and colons', (n) => '":'.repeat(n / 2)],
    ['backslashes', (n) => `"${'\\'.repeat(n)}`],
  ];

  /**
   * The fastest of `runs` timings of `fn`, in ms: a busy machine (a garbage collection, another
   * process taking the core) only ever adds time, so the minimum is the cost of the work itself.
   */
  const fastest = (fn: () => unknown, runs = 5) => {
    let best = Infinity;
    for (let k = 0; k < runs; k++) {
      const started = performance.now();
      fn();
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };

  it.each(adversarial)('runs in linear time on %s', (_name, make) => {
    const time = (n: number) => {
      const text = make(n);
      return fastest(() => maskText(text));
    };
    time(16 * 1024); // warm up
    const small = Math.max(time(64 * 1024), 0.5);
    const large = time(1024 * 1024);
    // 16 times the input: linear is ~16 times the time, quadratic 256 times. Generous bound for
    // a shared machine, far below quadratic; and a megabyte in well under a second.
    expect(large / small).toBeLessThan(64);
    expect(large).toBeLessThan(1000);
  });

  it('masks a megabyte body of any shape in bounded time', () => {
    const shapes = [
      `username=a&password=${'x'.repeat(1024 * 1024)}`,
      'password'.repeat(128 * 1024),
      JSON.stringify({ password: 'x'.repeat(1024 * 1024) }),
      JSON.stringify({ list: Array.from({ length: 100_000 }, (_, k) => ({ token: k })) }),
    ];
    for (const body of shapes) {
      expect(maskBody(body)!.length).toBeLessThan(MAX_STORED_BODY_CHARS + 100);
      expect(fastest(() => maskBody(body), 3)).toBeLessThan(200);
    }
    const list = Array.from({ length: 200_000 }, (_, k) => ({ token: k }));
    expect(maskBody({ list })).toMatch(/^\{"list":\[\{"token":"\*\*\*"\}/);
    expect(fastest(() => maskBody({ list }), 3)).toBeLessThan(200);
  });
});
