import { describe, expect, it } from 'vitest';
import { Failpoints } from './failpoints.js';

describe('Failpoints', () => {
  it('does nothing when unset or at a point not armed', async () => {
    await expect(new Failpoints(undefined).hit('after_audit_write')).resolves.toBeUndefined();
    const armed = new Failpoints('after_2xx_before_mark:error');
    await expect(armed.hit('after_audit_write')).resolves.toBeUndefined();
  });

  it('throws at a point armed with error', async () => {
    const points = new Failpoints('after_audit_write:error, after_2xx_before_mark:delay:1');
    await expect(points.hit('after_audit_write')).rejects.toThrow('failpoint after_audit_write');
  });

  it('waits at a point armed with delay', async () => {
    const points = new Failpoints('after_commit_before_dispatch:delay:120');
    const started = performance.now();
    await points.hit('after_commit_before_dispatch');
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('kills the process at a point armed with sigkill', async () => {
    let killed = 0;
    const points = new Failpoints('after_2xx_before_mark:sigkill', () => killed++);
    await points.hit('after_2xx_before_mark');
    expect(killed).toBe(1);
  });

  it.each([
    'nowhere:error',
    'after_audit_write',
    'after_audit_write:explode',
    'after_audit_write:delay:x',
  ])('refuses "%s" at start', (spec) => {
    expect(() => new Failpoints(spec)).toThrow(/FAILPOINT/);
  });
});
