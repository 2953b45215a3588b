import { describe, expect, it } from 'vitest';
import { parseDays } from './login-logs.service.js';

describe('parseDays', () => {
  it('accepts integers from 0', () => {
    expect(parseDays('0')).toBe(0);
    expect(parseDays('30')).toBe(30);
  });
  it.each([undefined, '', '-1', '1.5', 'abc', '1e3', ' 7'])('rejects %s with 40000', (raw) => {
    expect(() => parseDays(raw)).toThrow(expect.objectContaining({ code: 40000 }));
  });
});
