import { describe, expect, it } from 'vitest';
import { containsPattern } from './like-pattern.js';

describe('containsPattern', () => {
  it('wraps a plain keyword in %', () => {
    expect(containsPattern('alice')).toBe('%alice%');
  });

  it('escapes LIKE wildcards and the escape character so they match as text', () => {
    expect(containsPattern('100%_\\')).toBe('%100\\%\\_\\\\%');
  });

  it('leaves quotes alone: the pattern travels as a bound parameter', () => {
    expect(containsPattern("' OR '1'='1")).toBe("%' OR '1'='1%");
  });
});
