import { describe, expect, it } from 'vitest';
import { idFilter, readListQuery, withFilter, withPage } from './listQuery';

describe('the list view in the URL', () => {
  it('reads the page, its size and the filters asked for', () => {
    const q = readListQuery(new URLSearchParams('page=3&page_size=20&status=disabled&x=1'), [
      'status',
      'keyword',
    ]);
    expect(q).toEqual({ page: 3, page_size: 20, filters: { status: 'disabled' } });
  });

  it('falls back to page 1 of 10 on nonsense and clamps the size at 100', () => {
    expect(readListQuery(new URLSearchParams('page=abc&page_size=0'), [])).toMatchObject({
      page: 1,
      page_size: 10,
    });
    expect(readListQuery(new URLSearchParams('page=-2&page_size=5000'), [])).toMatchObject({
      page: 1,
      page_size: 100,
    });
  });

  it('goes back to page 1 when a filter changes, and drops an emptied filter', () => {
    const params = new URLSearchParams('page=4&keyword=ann');
    expect(withFilter(params, 'status', 'active').toString()).toBe('keyword=ann&status=active');
    expect(withFilter(params, 'keyword', '').toString()).toBe('');
  });

  it('writes only a page or size that is not the default', () => {
    expect(withPage(new URLSearchParams('keyword=a'), 2, 10).toString()).toBe('keyword=a&page=2');
    expect(withPage(new URLSearchParams('page=2'), 1, 50).toString()).toBe('page_size=50');
  });

  it('reads an id filter only when it is an id', () => {
    expect(idFilter('12')).toBe(12);
    expect(idFilter('abc')).toBeUndefined();
    expect(idFilter('0')).toBeUndefined();
    expect(idFilter(undefined)).toBeUndefined();
  });
});
