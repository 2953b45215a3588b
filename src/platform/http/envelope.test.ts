import { describe, expect, it } from 'vitest';
import { MAX_PAGE, parsePage } from './envelope.js';
import { AppError } from '../errors.js';

/** The error `parse` throws; fails the test when it does not throw an AppError. */
function errorOf(parse: () => unknown): AppError {
  let thrown: unknown;
  try {
    parse();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(AppError);
  return thrown as AppError;
}

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
    'answers 400 (40000) for page and page_size %j',
    (v) => {
      for (const query of [{ page: v }, { page_size: v }]) {
        const err = errorOf(() => parsePage(query));
        expect(err.code).toBe(40000);
        expect(err.httpStatus).toBe(400);
      }
    },
  );

  it.each(['9007199254740993', '9007199254740992', String(MAX_PAGE + 1), '9999999999999999'])(
    'answers 400 (40000) for a page beyond the last one any list can have: %s',
    (v) => {
      const err = errorOf(() => parsePage({ page: v, page_size: '100' }));
      expect(err.code).toBe(40000);
      expect(err.details).toEqual({
        fields: [{ field: 'page', rule: 'range', message: `must be at most ${MAX_PAGE}` }],
      });
    },
  );

  it('keeps the highest page and its offset exact', () => {
    const page = parsePage({ page: String(MAX_PAGE), page_size: '100' });
    expect(page).toEqual({ page: MAX_PAGE, pageSize: 100, offset: (MAX_PAGE - 1) * 100 });
    expect(Number.isSafeInteger(page.offset)).toBe(true);
  });
});
