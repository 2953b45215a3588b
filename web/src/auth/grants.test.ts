import { describe, expect, it } from 'vitest';
import { grants } from './AuthContext';

describe('grants: navigation follows the server grant rules', () => {
  it('accepts *, the exact code and a prefix:* grant, nothing else', () => {
    expect(grants(['*'], 'bpm:definition:list')).toBe(true);
    expect(grants(['bpm:definition:list'], 'bpm:definition:list')).toBe(true);
    expect(grants(['bpm:definition:*'], 'bpm:definition:list')).toBe(true);
    expect(grants(['bpm:*'], 'bpm:definition:create')).toBe(true);
    expect(grants(['bpm:definition:lis'], 'bpm:definition:list')).toBe(false);
    expect(grants(['system:user:*'], 'bpm:definition:list')).toBe(false);
    expect(grants([], 'bpm:definition:list')).toBe(false);
  });
});
