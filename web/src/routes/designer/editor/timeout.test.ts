import { describe, expect, it } from 'vitest';
import { cleanResubmitTimeout, cleanTimeout, resubmitSummary, timeoutSummary } from './timeout';

describe('step deadlines', () => {
  it('keeps for remind the count and the interval, the interval only when it repeats', () => {
    expect(
      cleanTimeout({ hours: 24, action: 'remind', repeatCount: 3, repeatEveryHours: 8 }),
    ).toEqual({ hours: 24, action: 'remind', repeatCount: 3, repeatEveryHours: 8 });
    // More than one reminder needs an interval (the server's rule): the first delay by default.
    expect(cleanTimeout({ hours: 12, action: 'remind', repeatCount: 2 })).toEqual({
      hours: 12,
      action: 'remind',
      repeatCount: 2,
      repeatEveryHours: 12,
    });
    expect(
      cleanTimeout({ hours: 24, action: 'remind', repeatCount: 1, repeatEveryHours: 8 }),
    ).toEqual({ hours: 24, action: 'remind' });
  });

  it('keeps for escalate the interval and the final action, never a count', () => {
    expect(
      cleanTimeout({
        hours: 48,
        action: 'escalate',
        repeatEveryHours: 24,
        repeatCount: 4,
        finalAction: 'auto_approve',
      }),
    ).toEqual({ hours: 48, action: 'escalate', repeatEveryHours: 24, finalAction: 'auto_approve' });
    expect(
      cleanTimeout({ hours: 48, action: 'escalate', repeatEveryHours: null as never }),
    ).toEqual({ hours: 48, action: 'escalate', finalAction: 'stay' });
  });

  it('drops what the automatic actions do not take', () => {
    expect(
      cleanTimeout({
        hours: 6,
        action: 'auto_reject',
        repeatEveryHours: 2,
        repeatCount: 3,
        finalAction: 'stay',
      }),
    ).toEqual({ hours: 6, action: 'auto_reject' });
    expect(cleanResubmitTimeout({ hours: 72 })).toEqual({ hours: 72, action: 'remind' });
  });

  it('says a deadline in a few words', () => {
    expect(timeoutSummary(undefined)).toBeNull();
    expect(timeoutSummary({ hours: 24, action: 'remind' })).toEqual({
      key: 'remindOnce',
      params: { hours: 24 },
    });
    expect(
      timeoutSummary({ hours: 24, action: 'remind', repeatCount: 3, repeatEveryHours: 8 }),
    ).toEqual({ key: 'remindRepeat', params: { hours: 24, count: 3, every: 8 } });
    expect(timeoutSummary({ hours: 48, action: 'escalate' })).toEqual({
      key: 'escalate',
      params: { hours: 48, every: 48, final: 'stay' },
    });
    expect(timeoutSummary({ hours: 2, action: 'auto_approve' })?.key).toBe('auto_approve');
    expect(resubmitSummary({ hours: 72, action: 'cancel' })).toEqual({
      key: 'resubmitCancel',
      params: { hours: 72 },
    });
    expect(resubmitSummary(undefined)).toBeNull();
  });
});
