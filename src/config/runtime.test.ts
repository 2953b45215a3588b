import { describe, expect, it } from 'vitest';
import { runtimeProblem } from './runtime.js';

describe('the Node.js runtime check', () => {
  it('accepts 22 and later, and refuses 20 and anything it cannot read', () => {
    expect(runtimeProblem('v22.0.0')).toBeUndefined();
    expect(runtimeProblem('v24.21.0')).toBeUndefined();
    expect(runtimeProblem('v25.1.0')).toBeUndefined();
    expect(runtimeProblem('v20.20.2')).toBe(
      'needs Node.js 22 or later (24 is tested); this is v20.20.2',
    );
    expect(runtimeProblem('v18.19.0')).toMatch(/needs Node.js 22/);
    expect(runtimeProblem('garbage')).toMatch(/needs Node.js 22/);
  });

  it('is what this test process passes (the suite runs on a supported Node.js)', () => {
    expect(runtimeProblem(process.version)).toBeUndefined();
  });
});
