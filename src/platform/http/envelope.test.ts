import { describe, expect, it } from 'vitest';
import { parsePage } from './envelope.js';
import { AppError } from './errors.js';

describe('pagination', () => {
  it('defaults to page 1 of 10', () => {
    expect(parsePage({})).toEqual({ page: 1, pageSize: 10, offset: 0 });
  });

  it('clamps page_size at 100', () => {
    expect(parsePage({ page: '3', page_size: '1000000000' })).toEqual({
      page: 3,
      pageSize: 100,
      offset: 200,
    });
  });

  it.each(['0', '-1', 'abc', '1.5', '1e9', ' 2', '99999999999999999999'])(
    'answers 400 for page_size=%j',
    (v) => {
      expect(() => parsePage({ page_size: v })).toThrow(AppError);
      try {
        parsePage({ page: v });
      } catch (err) {
        expect((err as AppError).code).toBe(40000);
        expect((err as AppError).httpStatus).toBe(400);
      }
    },
  );
});
