import { describe, expect, it } from 'vitest';
import { signedUrlOf } from './guard.js';

describe('the URL a gateway signature covers', () => {
  it('normalises the path and keeps the query exactly as sent', () => {
    expect(signedUrlOf('/api/v1//users/./%61?page=1&q=%41+b')).toBe(
      '/api/v1/users/a?page=1&q=%41+b',
    );
  });

  it('tells a query string, an empty one and none apart', () => {
    const urls = [
      '/api/v1/users',
      '/api/v1/users?',
      '/api/v1/users?page=1',
      '/api/v1/users?page=2',
    ];
    expect(new Set(urls.map(signedUrlOf)).size).toBe(urls.length);
  });

  it('keeps a path that does not decode as it is, before its query', () => {
    expect(signedUrlOf('/api/v1/%E0%A4%A?x=1')).toBe('/api/v1/%E0%A4%A?x=1');
  });
});
