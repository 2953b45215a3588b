import { describe, expect, it } from 'vitest';
import { jsonRecords, withoutNul } from './json-records.js';

// A row as a batch writer passes it: text, a date, a null.
const entry = (requestBody: string | null) => ({
  requestId: 'r1',
  requestBody,
  createdAt: new Date('2026-01-01T00:00:00Z'),
});

const bodyOf = (json: string) =>
  (JSON.parse(json) as Array<{ requestBody: string }>)[0]!.requestBody;

describe('jsonRecords', () => {
  it('replaces NUL characters, which PostgreSQL text cannot hold, by U+FFFD', () => {
    const json = jsonRecords([entry('a\u0000b\u0000')]);
    expect(json).not.toContain('\\u0000');
    expect(bodyOf(json)).toBe('a\uFFFDb\uFFFD');
  });

  it('keeps a literal backslash followed by u0000 as it was', () => {
    for (const text of ['\\u0000', 'x\\\\u0000', '\\\u0000']) {
      const kept = bodyOf(jsonRecords([entry(text)]));
      expect(kept).toBe(text.replaceAll('\u0000', '\uFFFD'));
    }
  });

  it('carries dates as ISO text and nulls as null', () => {
    const [row] = JSON.parse(jsonRecords([entry(null)])) as Array<Record<string, unknown>>;
    expect(row).toMatchObject({ createdAt: '2026-01-01T00:00:00.000Z', requestBody: null });
  });
});

describe('withoutNul', () => {
  it('replaces NUL in string values and returns the same object when there is none', () => {
    const clean = { a: 'x', n: 1 };
    expect(withoutNul(clean)).toBe(clean);
    expect(withoutNul({ a: 'x\u0000y', n: 1, z: null })).toEqual({ a: 'x\uFFFDy', n: 1, z: null });
  });
});
