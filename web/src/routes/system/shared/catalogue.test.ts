import { describe, expect, it } from 'vitest';
import { matchesKeyword, pageOf } from './catalogue';

describe('a catalogue held whole', () => {
  it('matches a keyword in any of the texts, whatever the case; no keyword matches all', () => {
    expect(matchesKeyword('FOUND', '40400', 'not found')).toBe(true);
    expect(matchesKeyword('404', '40400', 'not found')).toBe(true);
    expect(matchesKeyword('teapot', '40400', 'not found')).toBe(false);
    expect(matchesKeyword(undefined, 'x')).toBe(true);
    expect(matchesKeyword('  ', 'x')).toBe(true);
  });

  it('answers one page and the whole count', () => {
    const items = [1, 2, 3, 4, 5];
    expect(pageOf(items, 1, 2)).toEqual({ list: [1, 2], total: 5 });
    expect(pageOf(items, 3, 2)).toEqual({ list: [5], total: 5 });
    expect(pageOf(items, 4, 2)).toEqual({ list: [], total: 5 });
  });
});
