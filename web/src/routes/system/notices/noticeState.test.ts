import { describe, expect, it } from 'vitest';
import { noticeState } from './noticeState';

const now = new Date('2024-05-01T12:00:00.000Z');
const notice = (published: boolean, starts_at: string | null, ends_at: string | null) => ({
  published,
  starts_at,
  ends_at,
});

describe('whether a notice is in effect', () => {
  it('never shows a draft, whatever its window', () => {
    expect(noticeState(notice(false, null, null), now)).toBe('draft');
  });

  it('shows a published notice while its window holds, open sides included', () => {
    expect(noticeState(notice(true, null, null), now)).toBe('effective');
    expect(noticeState(notice(true, '2024-05-01T12:00:00.000Z', null), now)).toBe('effective');
    expect(noticeState(notice(true, null, '2024-05-02T00:00:00.000Z'), now)).toBe('effective');
  });

  it('says when it is still to come or over', () => {
    expect(noticeState(notice(true, '2024-05-01T12:00:01.000Z', null), now)).toBe('scheduled');
    expect(noticeState(notice(true, null, '2024-05-01T12:00:00.000Z'), now)).toBe('ended');
  });
});
