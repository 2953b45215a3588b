import { describe, expect, it } from 'vitest';
import { usagePercent } from './usage';

describe('usagePercent', () => {
  it('is the share of the quota, rounded down to one decimal', () => {
    expect(usagePercent(512, 1024)).toBe(50);
    expect(usagePercent(1, 3)).toBe(33.3);
  });

  it('shows a little for a few bytes, and 100 only when the quota is reached', () => {
    expect(usagePercent(1, 100 * 1024 * 1024)).toBe(0.1);
    expect(usagePercent(1024 * 1024 - 1, 1024 * 1024)).toBe(99.9);
    expect(usagePercent(2048, 1024)).toBe(100);
  });

  it('is 0 with nothing stored, or without a quota', () => {
    expect(usagePercent(0, 1024)).toBe(0);
    expect(usagePercent(500, 0)).toBe(0);
  });
});
