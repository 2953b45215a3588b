import { describe, expect, it } from 'vitest';
import { KeySealer } from './key-sealing.js';

describe('KeySealer', () => {
  it('opens what it sealed, for the same binding only', () => {
    const sealer = new KeySealer('a-secret-of-enough-length-0123456789');
    const sealed = sealer.seal('-----BEGIN PRIVATE KEY-----', 'AA:BB');
    expect(sealed).not.toContain('PRIVATE');
    expect(sealer.open(sealed, 'AA:BB')).toBe('-----BEGIN PRIVATE KEY-----');
    expect(() => sealer.open(sealed, 'AA:BC')).toThrow();
    expect(() => new KeySealer('another-secret-0123456789abcdef').open(sealed, 'AA:BB')).toThrow();
    expect(sealer.seal('x', 'y')).not.toBe(sealer.seal('x', 'y'));
  });
});
