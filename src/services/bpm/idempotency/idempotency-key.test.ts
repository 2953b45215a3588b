import { describe, expect, it } from 'vitest';
import { canonicalJson, parseIdempotencyKey, requestHash } from './idempotency-key.js';

describe('Idempotency-Key header', () => {
  it('is optional', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it.each(['a', 'order-42', 'A.b_c:d-9', 'x'.repeat(128), '550e8400-e29b-41d4-a716-446655440000'])(
    'accepts %j',
    (key) => {
      expect(parseIdempotencyKey(key)).toBe(key);
    },
  );

  it.each(['', ' ', 'x'.repeat(129), 'a b', 'a/b', 'ключ', 'a,b', 'a, b'])(
    'refuses %j with 40000',
    (key) => {
      expect(() => parseIdempotencyKey(key)).toThrow(
        expect.objectContaining({ code: 40000, httpStatus: 400 }),
      );
    },
  );

  it('refuses a header sent as a list', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(expect.objectContaining({ code: 40000 }));
  });
});

describe('canonical JSON', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('writes the same text for bodies that differ only in key order', () => {
    expect(canonicalJson({ comment: 'ok', form: { days: 2, reason: 'x' } })).toBe(
      canonicalJson({ form: { reason: 'x', days: 2 }, comment: 'ok' }),
    );
  });

  it('follows JSON.stringify for undefined, non-finite numbers and escapes', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined, Number.NaN, Infinity])).toBe('[null,null,null]');
    expect(canonicalJson({ 'q"k': 'line\nbreak' })).toBe('{"q\\"k":"line\\nbreak"}');
    expect(canonicalJson('é')).toBe(JSON.stringify('é'));
  });

  it('does not confuse a string with the value it spells', () => {
    expect(canonicalJson('1')).not.toBe(canonicalJson(1));
    expect(canonicalJson({ a: 'null' })).not.toBe(canonicalJson({ a: null }));
  });
});

describe('request hash', () => {
  const body = { comment: 'ok' };
  const hash = requestHash('POST', '/api/v1/bpm/tasks/7/approve', body);

  it('is a SHA-256 hex digest, stable for the same request', () => {
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash('post', '/api/v1/bpm/tasks/7/approve', { comment: 'ok' })).toBe(hash);
  });

  it('differs when the method, the path or the body differs', () => {
    expect(requestHash('PUT', '/api/v1/bpm/tasks/7/approve', body)).not.toBe(hash);
    expect(requestHash('POST', '/api/v1/bpm/tasks/8/approve', body)).not.toBe(hash);
    expect(requestHash('POST', '/api/v1/bpm/tasks/7/reject', body)).not.toBe(hash);
    expect(requestHash('POST', '/api/v1/bpm/tasks/7/approve', { comment: 'ok!' })).not.toBe(hash);
    expect(requestHash('POST', '/api/v1/bpm/tasks/7/approve', undefined)).not.toBe(hash);
  });
});
